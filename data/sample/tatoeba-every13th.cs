Aby byl svět lepším místem, musí se udělat radikální změny.
Afrika je kontinent, Grónsko ne.
Aktualizoval jsem svůj profil.
Alkohol a tvrdé drogy ničí lidské životy.
Ani jsem tam nebyl.
Ani Tom, ani Mary nemá řidičský průkaz.
Ano, samozřejmě.
Asi jsem tak trochu vlk samotář.
Atomy se skládají z protonů, elektronů a neutronů.
Autobusy odjely jeden za druhým.
Až vyrostu, chci být jako on.
Barmane, dám si něco k pití.
Běháš každý den?
Bezbarvé zelené nápady spí šíleně.
Bezpečně můžete bruslit na této straně jezera.
Bez tvých rad se obejdu.
Bohatí se někdy dívají na chudé s patra.
Bojím se řídit auto na jednosměrných silnicích.
Bojíš se Toma, co?
Bolí mě pravé rameno.
Brzo si na to zvykneš.
Budeme jíst, jakmile tohle doděláme.
„Bude pršet?“ — „Doufám, že ne.“
Budeš Tomovi dělat tlumočníka?
Bude to Tom, nebo já?
Budoucnost bývala lepší.
Budu nosit košili.
Budu tatínkem.
Budu velmi šťastný, když budeš moci přijít.
Burdž Chalífa je v současnosti nejvyšší mrakodrap na světě.
Bydlívala tam ohavná příšera.
Byla to dobrá párty, dokud nepřišel Tom.
Byla v mém pokoji.
Byli bychom rádi, kdyby Tom odešel.
Byli přesvědčeni, že Tom je chce zabít.
Byl jsem požádán o pomoc.
Byl jsem usvědčen.
Bylo by to rasistické.
Bylo to od Toma velmi hezké, že na nás počkal.
Byl sveden Marií.
Byl to Tom, kdo vám umyl auto.
Byly ty volby zmanipulované?
Bývala bych ráda jela do Bostonu s tebou.
Býval jsem učitelem francouzštiny.
Čas byl proti Danovi.
Čas utíká rychle, když se dobře bavíš.
Čekal jsem a čekal.
Čekám už dvě hodiny. Nemohu už dál čekat.
Celý smysl nošení roušek spočívá v ochraně lidí kolem vás.
Cestuješ lodí nebo letadlem?
Chceme se tam vrátit, jakmile to půjde.
Chceš být povýšen?
Chceš si zahrát hru?
Chce to odhodlání.
Chci, abyste chvilku počkali.
Chci děti, ale můj muž je nechce.
Chci na té škole studovat.
Chci se stát lepším tanečníkem.
Chci si zatančit s Marií.
Chci tě rozesmát.
Chci vědět o každém Tomově kroku.
Chlapec má žízeň.
Chodíte často do restaurace?
Chtěla, aby jí řekl, že ji miluje.
Chtěl bych heřmánkový čaj.
Chtěli byste mít psa?
Chtěl jsem tvoji fotku.
Chudoba je zbytečná příčina smrti.
Chystal jsem se odejít, když v tom v domě vypukl požár.
„Čí jsou tohle ponožky?“ — „Mojí sestry.“
Čínština je obtížnější, než jiné cizí jazyky.
Cítil jsem Tomovu nevraživost vůči nám.
Člověk jako ty mě nemůže urazit.
Co bychom si bez vás počali?
Co chtěl, aby udělali?
Co hodláš dělat dnes večer?
Co je to pravda?
Co jsi čekal, že uvidíš?
Co kdybychom na včerejší noc zapomněli?
Co kdybychom šli ven na čerstvý vzduch?
Co kdyby ses u mě stavěl?
Co když Tom Mary ublíží?
Co mu udělali?
Copak ses zbláznil?
Co se děje?
Co se vám líbí nejvíc na létě?
Co tady roste?
Co Tom rád dělá?
Co zapomínám?
Což takhle projít se po pláži?
Cucni si toho.
Dali se do pláče.
Dáme si aperitiv?
Dan chtěl, abys věděl, že k tobě nechová nenávist.
Dávám přednost tmavému chlebu před bílým.
Dej limetku do kokosu.
Dej mi ten nůž.
Dej Tomovi, o co žádá.
Dělají to, protože jim to dovolíme.
Dělávali jsme pro Toma.
Děti často nenávidí špenát.
Děti si hrají s hračkami.
Díky bohu, že jsi tu.
Dítě kašle celou noc.
Dívám se na ni, jak tiše spí.
Dnes bychom se měli Tomovi raději vyhnout.
Dnes jsem ti přinesl oběd.
Dnes miluji celý svět.
Dnes ráno jsem Tomem mluvil.
Dnes večer mám volno.
Dobře se pamatuji toho dne, kdy ses narodil.
Dohodli jsme se, že nebudeme mít děti před třicítkou.
Dokažte, že Tom existuje.
Do kostela chodím v neděli.
Donesu oběd.
Dosáhl svého cíle.
Dostal jsem pozvání.
Dosud nevím, proč jsem to řekl.
Doufáme, že sis neublížil.
Doufám, že odmaturuji.
Doufám, že to brzy skončí.
Doufám, že všechno půjde dobře.
Dovolte, abych vám vzal ten kufr.
Dřív jsem nekouřil.
Dublin se nachází v Irsku.
Dveře vlaku byly otevřeny.
Evropané jsou největšími konzumenty alkoholu na světě.
Firma uzavírá své účetnictví na konci března.
Funguje ten stroj ještě?
Hepčík!
Hledají místo, kam Tom ukryl hotovost.
Hledám svoji ženu.
Hluboká noc a úplněk nám nabídly jako dar pouze atmosféru.
Hněvem mu škubalo ve tváři.
Hodně štěstí!
Hraje na xylofon?
Hroši milují vodu.
I já jsem Toma míval rád.
Internet je velmi pomalý.
Já bych to snad mohl zvládnout.
Já jím tady.
Jaká bude naše budoucnost?
Jaká to škoda, že jeho život byl tak brzo přerušen.
Jak často jezdíš do zahraničí?
Jak dlouho jste čekal?
Jak dlouho vám trvá jíst snídani?
Jaké je vaše datum narození?
Jak jsi příbuzný s Tomem?
Jak mohu zhubnout?
Jakou nejbláznivější věc jste udělali v poslední době?
Jak se jmenuje tvije sestra?
Jak ses opovážil!
Jak stará je tato budova?
Jak vypadám?
Jaký je tvůj hlavní cíl?
Jakže se to jmenuješ?
Já nevím.
Já se líbám s otevřenýma očima.
Já to napsal.
Jdeme na to!
Jdu domů.
Je čas říct lidem pravdu.
Jeden čas tady stával dům.
Jedině Tom jim může pomoct.
Jedna věc, kterou na zimě nemám rád, je vylézání z teplé postele.
Jednou ti to oplatím.
Je dost těžké se živit překládáním, když neumíte psát všema deseti.
Jeho koníčkem je malování obrazů.
Jeho řeč byla moc krátká.
Je jasné, že Tom ví, co dělá.
Jejich vztah je toxický.
Její otec zemřel.
Je lepší se probudit za ptačího zpěvu, nežli budíkem.
Je mi fuk, kolik vážíš.
Je mi líto, že pro tebe jsem tak velkým zklamáním.
Je mladší, než tvrdila, že je.
Je nádherný den, že?
Je nezdvořilé mluvit s plnými ústy.
Jen přes moji mrtvolu!
Je očividné, že je to lež.
Je po uši v dluzích.
Je provdaná za cizince.
Ještě jsem dnes nejedl.
Ještě mi nebyla přidělena žádná práce.
Ještě nevědí.
Ještě si myslíš, že to bude snadné?
Ještě že jsi to neudělal.
Jestli mi nevěříš, jdi a podívej se sám.
Jestli to tam už nemůžeš vydržet, tak prostě odejdi.
Je tady poblíž veřejná pláž?
Je těžké mluvit anglicky?
Je to datum.
Je to jen názor.
Je Tom hotov?
Je Tom v práci?
Je to odplata za špatné skutky v předchozím životě.
Je to pro mě důležité rozhodnutí.
Je to snadné udělat?
Je to tvůj kufr?
Je to vše, co potřebujeme?
Je třeba říct, že jazyk je něco, co se učíme, není něčím, co bychom instinktivně znali.
Je tvá matka doma?
Je ve vaší zemi přijatelné chodit pozdě na schůze?
Je ženatý?
Je zvyklá ponocovat.
Jistě. Hodně štěstí!
John má rád šachy.
Jsem Holanďan.
Jsem muslimka.
Jsem novinář.
Jsem připraven pracovat.
Jsem rád, že se Tom o sebe stará.
Jsem si docela jistý.
Jsem si toho vědom.
Jsem tak ráda, že jsi tady.
Jsem Tomovi moc vděčný za záchranu svého života.
Jsem velice šťastná v Gruzii.
Jsem zvyklý prohrávat.
Jsi dvakrát silnější než já.
Jsi mé první dítě.
Jsi plešatý?
Jsi spokojená se svým tělem?
Jsme na cestě k Tomovi.
Jsme si jisti, že to nebyla nehoda.
Jsme tři.
Jsou mimozemšťané skuteční?
Jsou tady v okolí nějací medvědi?
Jsou všechny tyhle knihy vaše?
Jste obě v pořádku?
Juliana mi řekla, že jsi ze São Paulа.
Kam odešla?
Kam zmizely všechny ty děti?
Každý čtvrtý spotřebitel si myslí, že cena v budoucnu bude stoupat.
Každý má jméno.
K čemu jsou?
Kde je Libanon?
Kde je teď ta dívka?
Kde jsem byl, když jsem se potřeboval nejvíc?
Kde jsou vaše zavazadla?
Kdes celou tu dobu byl?
Kde?
Kdo další seděl vepředu?
Kdo ještě tam byl kromě Toma?
Kdo jsou slavní hudebníci ve vaší zemi?
Kdo odklidil ten sníh?
Kdo ti řekl, že ti pomůžu.
Kdo to Tomovi dovolil udělat?
Kdo zaplatil za tyhle lístky?
Kdybych se ještě jednou narodil, stal bych se hudebníkem.
Kdyby měli svědomí, nechovali by se takhle.
Kdybyste případně potřeboval další informace, neváhejte se mi ozvat, prosím.
Kdy jdeš zase do práce?
Kdy myslíš, že Tom přijde?
Kdy se vrátíme k normálnímu životu?
Kdysi jsem Toma milovala.
Kdysi to dělal Tom.
Kdy začalo sněžit?
Když jsem byl dítě, plaval jsem každý den.
Když jsme pryč z domu, nic nás nepotěší více, jako když obdržíme balíček z domu.
Když přemýšlí, drbe se na hlavě.
Když se učíte angličtinu, musíte se každé slovo naučit dvakrát.
Když to okno otevřeš, nesmíš ho zapomenout zavřít.
Kéž bych byl počkal.
Kéž bych to byl věděl.
Kim je oděna velice přitažlivým způsobem.
Knihy pro mladé se nyní dobře prodávají.
- Koho jsi tam viděl? - Viděl jsem tam Toma.
Kolik času potřebujeme?
Kolik hodin tam teď máš?
Kolik lidí ví, že žiješ?
Kolik skladeb Mozart napsal?
Kolik vás je ve vaší rodině?
Konečně jsem zjistil, co se stalo.
Koťata jsou zvědavá.
Koupil jsem dvě krabičky zápalek.
Koupím obě.
Krabice se šperky mé sestry byla ukradena.
Kreslí obrázek.
Kručí mi v břiše.
Který hrob je Toma?
Kupovala noviny.
Kvůli čemu hulákáš?
Leden, únor, březen, duben, květen, červen, červenec, srpen, září, říjen, listopad a prosinec je dvanáct ročních měsíců.
Lešení, které stavěl Tom, se zřítilo.
Lhali.
Líbím se Tomovi.
Líbí se mi pomalé tempo této písně.
Lidé by se smáli každému děcku, které by udělalo něco takového.
Lidé nemohou žít bez vody.
Lidé starověku uctívali mnoho bohů a bohyní.
Lilky umyjte a odřízněte vršky.
Lituji, že jsem jim vyprávěl o své rodině.
Lvi se živí masem.
Má dvě auta.
Mají sele jako domácího mazlíčka.
Málokdy přijde na jednání pozdě.
Mám dvě dcery a dva syny.
Máme lepší nápoje, než je tento čaj.
Máme rádi jednoduchost.
Máme už těch omezení dost.
Mám jenom tebe.
Mám na práci nějaké učení.
Mám pocit, že mi nikdo neříká pravdu.
Mám rád astrologii.
Mám rád kyselé zelí.
Mám rád psy.
Mám rád všechny členy té rodiny, kromě Toma.
Mám staré kolo.
Mám umýt ten salát?
Mám za sousedy rasisty.
Má oči jako safíry.
Má rakovinu.
Mary bude velmi vděčná, když Tom přijde k obědu včas.
Mary dovolila Tomovi políbit ji.
Mary je velmi zaneprázdněná žena.
Mary na sobě měla krátkou sukni.
Mary řekla, že bude stát při Tomovi.
Mary se Toma zeptala, jestli je dost najedený.
Mary s Tomem jen marní čas.
"Mary?", zašeptala Alice.
Máš horečku.
Máš povolení k držení zbraně?
Máš to všechno špatně.
Máte mapu?
Máte rádi jahody?
Má třikrát tolik knih co já.
Měď a stříbro jsou obojí kovy.
Měla bys pochopit, že tě Tom jenom využívá.
Měl bych nechat flákání se.
Měl bys jít s námi.
Měl bys to zkusit znovu.
Měli bychom se zout, než vstoupíme do domu.
Měli jsme přijet dřív.
Měl jsem hlad a žízeň.
Měl jsem za nemožné, že by ten problém vyřešil on.
Mělo by se to udělat okamžitě.
Mému otci bude v květnu čtyřicet pět let.
Město má staré ulice.
Miluje-li Tom Mary a Mary miluje Johna, pak Tom miluje Johna?
Milují Toma.
Minulý týden Toma propustili z vězení.
Míval jsi mě rád.
Mluvil kdy někdo z vás s Tomem?
Mluvíte anglicky?
Mně to nepomohlo, ale Tomovi by to pomoct mohlo.
Mnoho současných filmů je brak.
Moc si na to nezvykej.
Mohl by ses pokusit zeptat Toma, co si myslí.
Mohli říct ne.
Mohu ti dát autogram, jestli chceš.
Moje děti si rády zpívají v autě.
Moje matka si čte časopis.
Moje sestra se právě baví s kamarádkami.
Molekula vody má dva atomy vodíku a jeden atom kyslíku.
Možná jsi to udělal.
Možná to udělal Tom.
Mrzí mě, že Tom odchází.
Můj hoch se podobá tvé dívce.
Můj otec pracuje v továrně.
Můj starší bratr chodí každý víkend rybařit.
Můj úmysl byl čistý.
Museli jsme naši kočku nechat utratit.
Musí být nějaký způsob, jak tu řeku přejít.
Musíme omezit výdaje.
Musíme se zbavit té veteše.
Musíme věřit, že dokážeme vyhrát.
Musím jít spát.
Musím si koupit nový sešit.
Musím udělat generální úklid kuchyně.
Musíš je chránit.
Musíš se naučit poslouchat pokyny.
Musíš to říct srozumitelně.
Musíte se vrátit.
Můžeme se sejít na zastávce.
Může se přátelit s kým chce.
Můžeš přijít, jestli chceš.
Můžeš to video na chvíli pozastavit?
Můžete nám říct, proč jste odmítli Tomovi pomoct?
Muž, který sedí támhle, je známý zpěvák.
Můžu ti sehnat lístky.
My jsme architekti.
Myslela si, že ho může přimět, aby ji měl rád.
Myslel jsem, že by se to k něčemu mohlo hodit.
Myslel jsem, že Tom je nekuřák.
Myslím, že bychom v tomto rozhovoru měli pokračovat venku.
Myslím, že jsi udělal hroznou chybu.
Myslím, že můj nápad je lepší.
Myslím, že se Tom nekvalifikuje.
Myslím, že Tom je pracovitý.
Myslím, že to nestačí.
Myslí si, že jeho práce nemá smysl.
Myslíš, že to doopravdy chci dělat?
Myslíte si, že jim Tom mohl ublížit?
Nabídl jsem se, že Toma odvezu do nemocnice.
Na co se mnou mluvíš?
Nádrž je skoro plná.
Najdeme nějaké bezpečné místo pro Toma.
Nakonec všechno pochopíte.
Namaloval jsem tento obraz.
Napíšu knihu.
Naprosto mě to šokovalo.
Nařezej to maso na tenké plátky.
Náš dům
Našel v lese opuštěného psa.
Naše ženy jsou Kanaďanky.
Náš pes byl nemocný, ale teď už je zdravý.
Na stole jsou pastelky.
Na to, abych si teď bral dovolenou mám moc práce.
Na tom rohu bývalo květinářství.
Na ubrusu je skvrna.
Na, vem si můj klíč.
Navštíví svého strýce.
Na ženění jsi příliš mladý.
Nebojím se žádné výhrůžky.
Nebudeš věřit, co jsem se doslechl.
Nebuďte tak hluční, prosím.
Nebudu tě učit, jak se máš chovat, Tome.
Nebyli nemocní.
Nebylo tam mnoho děvčat.
Nečekal jsem dlouho, než přijel autobus.
Nechal jsi otevřené dveře.
Nechápu to.
Nechci, aby moje děti zažily bídu.
Nechci být vaším přítelem.
Nechci myslet na cenu benzínu.
Nechci tě ztratit.
Nech hulákání.
Nechtějí, aby jejich děti chodily do školy.
Nechtěl ti ublížit.
Něco Mary koupil.
Nedáte si něco k pití?
Nedělej mě lepším, než jsem.
Nedomnívám se, že dnes odpoledne bude pršet.
Nehledě na to, jak to uděláš, výsledek bude stejný.
Nejdůležitější je zdraví.
Nejsem kapitánem toho nového týmu.
Nejsem si zvlášť jistá jak tohle slovo vyslovit.
Nejsem zaujatý proti žádnému náboženství. To však neznamená, že je podporuji.
Nejsi jediný, kdo to musí dělat.
Nejspíš je mrtev.
Někdo by nás mohl vidět.
Někdo na Toma donáší.
Někdo vlezl oknem.
Někdy opravuji věty s drobnými chybami bez toho, aniž bych někoho informoval.
Některé květiny kvetou na jaře a jiné zase na podzim.
Někteří lidé se bojí pavouků.
Někteří z nás musí odejít brzy.
Nemám ani matku, ani otce.
Nemám hlad.
Nemám rád běh.
Nemám tě rád natolik, abych s tebou chodil.
Nemá rád nikoho.
Nemáte ani tušení, co Tom udělal.
Neměl bys mít strach z budoucnosti.
Neměli jsme přinášet oběd.
Neměl jsi sem chodit sám.
Nemluvím italsky, znám jen pár slov.
Nemohl jsem přijít, protože jsem musel odklízet sníh.
"Nemohu najít Toma." "Zkus mu zavolat."
Nemohu už déle čekat.
Nemusím se nikomu prokazovat.
Nemusíte na Toma čekat. Nepřijde.
Nemůžeš mě tady nechat.
Nemůžu ji vystát.
Nemůžu spát, když svítí světla.
Nemyslel jsem vážně to, co jsem řekl.
Nemysli si že nevím, co děláš.
Nenašli mě.
Nenecháte mě tady, že ne?
Není co dodat!
Není nad sklenici piva po celodenní práci.
Není snadné vycházet s idioty. Někdy je to dokonce nemožné.
Není to malé, ale velké.
Není to velikost, na čem záleží. Je to způsob použití.
Neobjevilo se to z ničeho nic.
Ne, on není můj nový přítel.
Nepohřbívej to příliš hluboko.
Nepoužívejte žehličku, elektrickou konvici a elektrický sporák zároveň.
Nepřijdi k úrazu.
Nerad bych, aby se ti to stalo.
Nerad uklízím.
Neříkej Tomovi, že se známe.
Nesahej na moje auto.
Neslyšel jsem, co Tom řekl.
Nesmíte Tomovi ubližovat.
Nestav sklenici poblíž okraje stolu.
Netroufám si ji oslovit.
Netýká se tě to.
Neudělám to, i kdybys mě na kolenou prosil.
Neuplyne jediný den, kdy bych si nevzpomněl na svého zemřelého psa.
Neváhej využít příležitosti požádat ji o ruku.
Nevěděl jsem, že ona má dítě.
Nevěnoval jsem mu pozornost.
Nevěřte Tomovi ani slovo.
Nevím, co chceš, a je mi to jedno.
Nevím, jak dlouho mi potrvá dostat se tam.
Nevím, jestli mám Tomovi říct pravdu, nebo ne.
Nevím. Měl by ses zeptat Toma.
Neví někdo, jak se Tom dostal dovnitř?
Nevrátíme se do normálního stavu, protože normální stav byl problém.
Nevypadáš příliš šťastná, že mě vidíš.
Nevzpomínám si, že bych s tím souhlasil.
Nezapomeňte jízdenku.
Nezdráhej se. Promluv.
Neznám své sousedy.
Nezval jsem tě.
Nic mi nevysvětluj.
Nic z toho, co Tom řekl, nedává smysl.
Nikdo mě nezná tak, jako můj bratr.
Nikdo nemá takové štěstí.
Nikdo nezná víc, než ten druhý. Všichni známe různé věci.
Nikdo se vtipům Toma nesmál.
Nikdo tě nemá rád.
Nikdo vás už volit nebude.
Nikdy bych to pro tebe neudělal.
Nikdy jsem to doopravdy neviděl.
Nikdy nebude sama.
Nikdy nezažil doopravdovou bolest. To samé se ale nedá říci o jeho ženě.
Nikl je tvrdý, jasně stříbrný kov.
Nil je nejdelší řekou světa.
Nuže, budeš toho litovat.
Oba Toma známe.
Občas váhá, než odpoví.
Obě Tomovy nohy musely být amputovány.
Obloha je zamračená.
Obyčejně bývám doma celý víkend.
Odešla do spojených států.
Od minulého čtvrtka prší.
Odmítl vzít "ne" jako odpověď.
Odpověď je správná.
Od té doby Toma nikdo neviděl.
Ok. Kde bydlíš?
Omlouvám se, že jsem přijela pozdě.
Ona je angličanka.
Ona není dobračka.
Ona vyhrožovala, že nám podpálí dům.
Oni ví, kdo jsme.
On má na sobě brýle.
On ukradl její hodinky.
Opravdu jsem to měl vědět.
Opravdu tě zneužili.
Ostříhala jste mi vlasy moc nakrátko.
Otevřete všechny obchody.
O Tomovi mluví celé město.
Pachatelem byl Kanaďan.
Pamatuješ, co se ti stalo?
Pamatuješ si mě, že?
Papír je bílý.
Pes je mrtvý.
Petr povalil židli.
Pil jsem víno.
Platím za Toma účtenky.
Počet nákupních košíků v nákupním středisku je omezen.
Počítač hraje významnou roli při nabývání vědomostí.
Počůral jsem se.
Podívala se na sebe do zrcadla.
Podlaha byla velmi studená.
Pod Tomovým vedením jste v bezpečí.
Pojďme tady bydlet.
Pojedu buď autobusem, nebo vlakem.
Pokročilo se málo.
Pokud vím, není ženatý.
Pokusy na zvířatech by měly být zakázány.
Policie pátrá po uprchlém vězni.
Polština má sedm pádů.
Pondělí, úterý, středa, čtvrtek, pátek, sobota a neděle je sedm dnů týdne.
Po prvé v životě dočetla Yuka knížku v angličtině.
Pořád se rozčiluje kvůli maličkostem.
"Posečeš dnes trávník, Tome?" "Nemohl bych to udělat zítra? Dneska se mi do toho nechce."
Poslední dobou je teplo.
Pospěš si, nebo zmeškáš poslední vlak.
Potěžkal ten kámen v ruce.
Potřebujeme kompletní věty.
Potřebuješ sanitku?
Potřebuji od tebe přeložit tyto fráze.
Potřebuju, abys poslouchal.
Povedlo se jim to?
Požádal jsem o pomoc souseda.
Později navštívíme akvapark.
Pozvala jsem Toma.
Pracujete pro Toma?
Prastaré obyčeje dnes rychle vymírají.
Právě jsem dokončil svoji práci, když v tom někdo zazvonil.
Právě píši dopis své učitelce čínštiny.
Přede dveřmi je nějaké křeslo.
Předstíral jsem, že ho nevidím.
Překonal jsem svůj strach.
Přeložte ten text.
Přeslechl jsem vaše příjmení.
Přestaň ji trápit.
Přestaňte Toma nutit!
Přestrojil jsem se za ženu, aby mě Tom nepoznal.
Přežijeme jedině když uděláme tohle.
Přidej trochu mléka.
Přijeli jste autobusem, že?
Přinesl jsem ti tohle.
Připadlo mi to jako hra.
Přísahám, že já to nebyl.
Přišla doba, kdy dokážeme cestovat vesmírem.
Příští rok to už bude deset let, co u té firmy pracuji.
Přízrak házel předměty v pokoji.
Proč brečíš?
Proč ceny za plyn narůstají?
Proč je láska tak těžká?
Proč jsem pořád hladová?
Proč jsi neudělal svůj domácí úkol?
Proč jsi vždy taková cynická?
Proč kupuješ tolik vína?
Proč nás někteří lidé přitahují a jiní ne?
Proč nepočkáte do rána?
Proč prostě Tomovi nedáš pusu?
Proč ses rozhodl neříct mi vše, co o Tomovi víš?
Proč si neoblékneš šaty?
Proč Toma tolik nesnáší?
Proč to nechápeš?
Prodáváte tady brambory?
Proklínám den, kdy jsem potkal Toma.
Promluvil jsem s nim.
Prosím, nedělej to.
Prosím tě, pošli mi pohled.
Prostě jsem neměl příležitost.
Pro Toma by i zemřeli.
Protože byl unavený, šel do postele brzy.
Pršelo celý týden.
Prý se zbláznil.
Půjčil jsem si Tomovo auto.
Půjdu do knihovny v pondělí.
Ráda jí čerstvou, syrovou zeleninu.
Rád bych si lehnul.
Rád bych věděl, co v té místnosti je.
Rád bych zemřel na stáří.
Raději bych zůstal tady.
Raději se omlouvám, než žádám o svolení.
Rád mluvím maďarsky.
Rád spím a jím.
Řekla mi, ať nekouřím v přítomnosti dětí.
Řekli mi, že to dělat nemůžu.
Řekl jsem to jen abych si Toma udobřil.
Řekl jsem Tomovi, že už ho mám plné zuby.
Řekl, že můj počítač ještě není připraven.
Řekněte Tomovi, že jste lhal.
Řekni mi tvé skutečné jméno.
Řekni, že si děláš srandu!
Říkají, že Tom je ten nejbystřejší v týmu.
Říká se, že má poměr se sestřičkou.
Řítí se lidstvo do záhuby?
Rozdělali oheň, aby se zahřáli.
Rozhodl jsem se rodičům nic neříkat.
Rozlišujeme živé a neživé objekty.
Rozumíte, co říkám?
Ruština není lehký jazyk.
Sama můžu potvrdit, že to je pravda.
Sami kouřil v práci trávu.
Sami se potloukal s lidmi, kteří se k němu nehodili.
Samozřejmě, že chceme zvítězit.
Sázíš tykve?
Seděl jsem vedle řidiče.
Šel bych pro ni ohněm v benzínem promočených spodkách.
Šel s ní do školy.
Sestřička je zaneprázdněna péčí o Toma.
Seženu ti to.
Sklo se vyrábí z písku.
Skřivan zpívá.
Slepě jsem Tomovi věřil. Teď toho lituji.
Slon je šedý.
Slyšel jsi o Tomovi?
Smrt je tajemná dáma bez soucitu.
Snažila se na něj nedívat.
Snaž se Toma pochopit.
Sníh začal tát.
Sotva vyjdu schody. Jsem tlustý, jako prase.
Sovy vidí ve tmě.
Spojené Státy hraničí s Kanadou.
Stále bude nějaká práce.
Stále nevím, jak jsem ji dokázal přesvědčit.
Stalo se to, když Tom spal.
Stařenka upadla a nemohla vstát.
Stává se vám to často?
Stiskněte to tlačítko.
S Tomem si to vyřídím potom.
Stromy se ve větru ohýbaly.
Stůl je prostřen.
Svět je ohromné místo.
Tabákový kouř způsobuje rakovinu.
Tady býval strom.
Tady, nebo s sebou?
Tahle práce už mi leze krkem.
Tak co máš za problém?
Takhle se to dělat nedá.
Tak neváhej.
Takovou noční už jsem dlouho neměl.
Tak už to udělej.
Tamhleta dívka je velice tlustá.
Ta postel zabrala hodně místa.
Táta šel zrovna ven.
Tato kniha je napsána jednoduchou angličtinou, aby jí rozuměli začátečníci.
Tato pravidla vnesla nespokojenost mezi studenty.
Tato voda je jedovatá.
Ta věta je v pořádku.
Teď je to dokonalé.
Teď nás nic nezastaví.
Teď to porovnáme se situací v malém městě. Je zde méně obchodů, restaurací, a tak dále a zavírají docela brzo v noci. Okna a dveře jsou zavřeny. Nenajdete žádné části města kam by člověk mohl jít, pokud nechce "zůstat doma".
Ten chlapec je skutečně stydlivý.
Tenhle rok chci přečíst tolik anglických knížek, kolik jen budu moct.
Tenkrát jsem nemohl nic dělat.
Ten pes je slepý na jedno oko.
Ten stařec tam bydlel sám.
Tento hotel je velmi dobrý.
Tento náhrdelník jest z nefritu.
Tento šroub je uvolněný.
Ten vlak jel hrozně pomalu.
Těšíme se, že vás brzy uvidíme.
Tichá voda břehy mele.
Ti studenti rychle chápou.
Tobě se líbí sloni.
To by mohl být můj učitel.
To, co se stalo Tomovi, je hrozné.
To, co Tom udělal, je opravdu nechutné.
Tohle bývala kavárna.
Tohle je doutník.
Tohle je obraz, který jsem včera namaloval.
Tohle je to nejlepší, co jsi kdy udělal.
Tohle jsem se snažil říct již předtím.
Tohle není úplná věta.
Tohle se nauč zpaměti.
Tohle všechno je pro mě?
To je ale krásný výhled!
To je jejich problém.
To je nejošklivější čepice, co jsem kdy viděl.
To je starý ruský zvyk.
To je všechno, co potřebuji.
To jí pomůže.
To jsme kdysi dělali.
Tom a já jsme bratranci.
Tom a Mary bývali přáteli.
Tom a Mary mi řekli, že potřebují vaší pomoc.
Tom a Mary se milují.
Tom a Mary žijí v McMansionu.
Toma nemůžeš brát vážně.
Toma se to netýká.
Toma tohle nezajímá.
Tom běžel po ulici za Mary.
Tom byl až do odvolání suspendován.
Tom byl můj první přítel.
Tom byl odzbrojen a zatčen.
Tom byl svou prací znuděn.
Tom byl ve stejném letadle, jako já.
Tom by měl být potrestán za to, co udělal.
Tom by pro vás jistě udělal to samé.
Tom by už měl být doma.
Tom býval ženatý.
Tom čekal, až uslyší jeho kroky.
Tom chce jít s tebou.
Tom chrápe.
Tom chtěl střílet na policisty, ale my jsme mu to rozmluvili.
Tom čůrá za domem.
Tom dělal, že poslouchá.
Tom dokáže sníst banán za tři vteřiny.
Tom doufal, že někdo koupí jeho staré kolo.
Tome, ty idiote!
Tom huláká.
Tom je bilingvní.
Tom je doma.
Tom je hrozný šéf.
Tom je jen líný.
Tom je mravně zkažený.
Tom je na to poněkud starý.
Tom je někdo, komu se nedá věřit.
Tom je očividně vystrašený.
Tom je podivín.
Tom je příliš lakomý na to, aby se s někým o něco dělil.
Tom je reakcionář.
Tom je stále mladý muž.
Tom ještě nezaplatil členský příspěvek.
Tom je tvrdohlavý chlapík.
Tom je velmi nešťastný muž.
Tom je výřečný.
Tom je zjevně ze své práce unavený.
Tom je zvyklý rychle rozhodovat.
Tom jim řekl, ať ho nechají být.
Tom kdysi pracoval pro vládu.
Tom koupil své sestře dárek.
Tom má dobré zázemí.
Tom má na sebe velké nároky.
Tom má rád aritmetiku.
Tom má rád zvířata.
Tom má špatný vliv na našeho syna.
Tom má velkého ptáka.
Tom měl k obědu pečenou kachnu a teď je mu zle.
Tom měl těžké dětství.
Tom mě nikdy neměl rád.
Tom mě zavedl do své kanceláře.
Tom mi kdysi posílal dárky k narozeninám.
Tom mi nenabídl pomoc.
Tom mi řekl, že by se rád stal lékařem.
Tom mi řekl, že to není pravda.
Tom mi včera řekl to samé.
Tom mluví s Mary.
Tom musí být blázen.
Tom nám daroval měsíční štěně.
Tom nám to přinesl včera.
Tom našel v lese opuštěná liščata.
Tom nás přišel akorát obtěžovat.
Tom natřel okenní rámy na žluto.
Tom nebyl příliš nápomocný.
Tom nechce svým dětem dovolit jet na školní výlet.
Tom nechtěl studovat v cizině.
Tom někdy odjíždí brzy.
Tom nemá předpoklady k tomu, aby učil.
Tom nemá žádný vězeňský záznam.
Tom nemohl najít zápalky, což ho velmi rozčililo.
Tom nemusí nic vracet.
Tom není občanem.
Tom není v té nemocnici, že?
Tom nepochází z bohaté rodiny.
Tom nesl Marii na ramenou.
Tom netušil, co se stane.
Tom nevěděl, co se děje.
Tom neví, kam se jeho život ubírá.
Tom nezhasnul.
Tom nikdy nepláče.
Tom občas jezdí do Bostonu.
Tom odešel z práce a odstěhoval se do Bostonu.
Tom odmítl zaplatit za oběd v jedné restauraci.
Tom omylem smazal video.
Tomova francouzština má k dokonalosti daleko, a stejně tak moje.
Tomova pravomoc zde je omezena.
Tomovi by se mělo říct, aby to už nedělal.
Tomovi nechybí Austrálie tolik, jako Mary.
Tomovi se líbí náš pes.
Tomovi se příčí násilí.
Tomovi vypadla zbraň z ruky.
Tomovy plány se konečně začaly plnit.
Tom plivl na podlahu.
Tom popadl Mary za ruku.
Tom postavil nový kurník.
Tom požádal svého otce, aby mu pomohl postavit sněhuláka.
Tom pracuje u jedné Kanadské firmy.
Tom přestal číst.
Tom připravil těstovinový salát.
Tom procitnul ve zvláštním pokoji.
Tom prý sexuálně obtěžoval mladou dívku.
Tom řekl Mary, že ji považuje za nejkrásnější ženu, kterou kdy potkal.
Tom řekl, že jsi mě chtěl vidět.
Tom řekl, že nemá čas na jídlo.
Tom řekl, že se musí hned vrátit domů.
Tom řekl, že to nařízení nebude dodržovat.
Tom říkal, že Mary odešla.
Tom říká, že se cítí lépe.
Tom se bojí psů.
Tom seděl na zemi a plakal.
Tom se do té dívky úplně zbláznil.
Tom šel domů o tři hodiny později.
Tom se Mary svěřil, že má problémy s pitím.
Tom se mi svěřil, že utekl z domova.
Tom se nabourává do počítače.
Tom se na ten film nechtěl dívat.
Tom se nenechá očkovat proti covidu.
Tom se nudil.
Tom se omluvil za to, že nepřišel dříve.
Tom se pokoušel sehnat nějaké jídlo.
Tom se rád prochází o samotě.
Tom se rozloučil se svými prarodiči a odjel.
Tom se skutečně dost podobá svému otci.
Tom se stal přes noc slavným.
Tom se tu zastavil.
Tom se vrátil do Bostonu.
Tom se začal nudit.
Tom se zdráhal s Mary diskutovat na ono téma.
Tom si četl časopis, když čekal na Mary až se objeví.
Tom si koupil foťák, který byl vyrobený v Japonsku.
Tom si myslí, že bude pršet.
Tom si na to dokázal udělat čas.
Tom si nemyslí, že to smíš dělat.
Tom si osvojil nový přístup.
Tom si stěžuje, že nevydělává dost peněz.
Tom si většinou kupuje levné cigarety.
Tom si začal rozvazovat boty.
Tom slyšel, jak někdo křičí jeho jméno.
Tom s omluvou odešel od stolu.
Tom sroloval lano a uložil ho do kufru svého auta.
Tom staví zeď.
Tom své přátele učí francouzsky.
Tom tam musí zůstat ještě týden.
Tom ten proslov zmeškal.
Tom to dokáže udělat lépe, než já.
Tom to nemohl slyšet.
Tom to pozoroval mnohokrát.
Tom to udělal včera ráno.
Tom tu ještě není.
Tom ty dveře našel otevřené.
Tom ukázal Marii cestu.
To mu nemůžu udělat.
Tom usrkával svoji kávu.
Tom uvěří všemu.
Tomův pes spí pod jeho posteli.
Tomův večírek byl nudný.
Tom už neloví.
Tom už vás dál nebude obtěžovat.
Tom vám říká pravdu.
Tom včera nevečeřel.
Tom věděl, že Mary chce, aby jí někam pozval.
Tom vešel dovnitř z deště.
Tom vidí to, co jiní nevidí.
Tom v říjnu zemřel na rakovinu.
Tom vůbec netušil, co se Mary stalo.
Tom vykoupal to dítě.
Tom vypadá podrážděný.
Tom vytvořil fotbalový tým.
Tom začal hulákat.
Tom zamířil zpět do tábora.
Tom zasadil semínka a pak čekal, až vyrostou.
Tom zdvořile smekl klobouk.
Tom žije v třípokojovém domě na předměstí Bostonu.
Tom zpomalil auto.
To nebyl Tom. Byl to někdo jiný.
To není Tomův nápad.
To prostě není pravda.
To se může stát každému.
Toto bude stát 30 €.
Toto je nové.
Toto určitě napsal někdo, kdo dobře umí anglicky.
To zboží objednal Tom.
Trhni si nohou!
Trpí nedostatkem spánku.
Tudy, pánové!
Tuto knihu jsem koupil Tomovi.
Tvoje řeč nebyla zdaleka uspokojivá.
Tvůj rukopis je velmi těžko k přečtení.
Tyhle novinky byly překvapením.
Ty jsi Tomův kamarád, že?
Ty nečekej a jdi.
Ty ses narodila v Anglii? Ale nezdá se, že bys měla britský přízvuk.
Tyto boty patří jí.
Tyto rostliny vypěstoval Tom.
Uběhly tři dny.
Učila své děti rusky.
Učitelka vyzvala Toma, aby přečetl svou slohovou práci nahlas.
Udělal bys to býval?
Udělal jsem hloupou chybu.
Udělal jsi to naschvál?
Udělám domácí úkol.
Udělej to, kde chceš.
Ujel mi poslední autobus, takže jsem musel jet taxíkem.
Ukaž mi svojí knihovnu a já ti řeknu, kdo jsi.
Ukradli mi peněženku, zatímco jsem spal.
Umím Finsky.
Umí tvůj pes plavat?
Uplynuly tři roky.
Určitě jsem udělal chybu.
Určitě odhalí svojí pravou tvář.
Usmívají se jeden na druhého.
Utekla ze své země.
Uvědomuješ si to?
Už dvacet let jezdí bez řidičského průkazu.
Už je zase podzim.
Už jsem začal.
Už jsi to měl mít udělané.
Už mám té války plné zuby.
Uznal, že jsem zkušenější řidič.
Už nic dalšího říkat nemusíš.
Už se nemůžu učit. Jsem moc unavený.
Už tě ne miluju, a tak jsem smutná.
Už vím, co se stalo.
Vánoce jsou již za tři dny.
Vaše šlechetnost nezná hranic.
Vážně s tebou chci jít, ale nemohu.
Včera jsem uklízel byt.
Vcházejte prosím po jednom.
Věci se opravdu změnily, že?
Věděli, kde Toma najdou.
Věděl jsi, že Tom dříve žil v Bostonu?
Velká auta spotřebují hodně benzínu.
Věřil jsem v Toma.
Věříš v život věčný po smrti?
Ve Spojených státech mluví anglicky.
Vezmi mě s sebou!
Viděla ho rozbít to okno.
Viděl jsem "Hvězdné Války" před pár měsíci.
Viděl jsem Tomův rodný list.
Vidím Toma všude kam se podívám.
Vím, co Tom míval rád.
Vím přesně, co bych dělal, kdybych byl Tomem.
Vím, že jsi na mě byla pyšná.
Vím, že tě má moc ráda.
Víš, jak jsi pro mě důležitá.
Vítejte na Tatoebě.
Ví Tom, co je to láska?
V konferenční místnosti není dost křesel.
Vlak vykolejil a způsobil paniku mezi cestujícími, ale nebyly hlášeny žádné oběti.
V mé bytovce se loni v létě stala vražda.
V naší ulici parkuje nějaký autobus.
Voda zmrzla.
Volíme mír, ne válku.
Vrána k vráně sedá.
Vrátím se během dvou hodin.
Vraťme se na hotel.
Vsadím se, že to neudělá.
Všechno jsem Tomovi vysvětlil, ale on to nechtěl pochopit.
Všechny děti nemají volný přístup ke vzdělání.
