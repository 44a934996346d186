Osmadvacetiletý šéfkuchař nalezen mrtev v obchodě v San Francisku
Osmadvacetiletý šéfkuchař, který se nedávno přistěhoval do San Franciska, byl tento týden schodech místního obchodu.
Bratr oběti ale říká, že ho nenapadá, kdo by mu chtěl ublížit, a dodává: „Konečně se mu začalo dařit.“
Tělo nalezené ve Westfield Mall ve středu ráno bylo identifikováno jako osmadvacetiletý obyvatel San Franciska Frank Galicia, uvedla kancelář soudního lékaře.
Sanfranciské policejní oddělení sdělilo, že se jedná o násilnou smrt a probíhá vyšetřování.
Bratr oběti Louis Galicia pro stanici ABC KGO v San Francisku řekl, že Frank, který byl dříve řadovým kuchařem v Bostonu, získal svou vysněnou práci šéfkuchaře v restauraci Sons & Daughters před šesti měsíci.
Mluvčí restaurace Sons & Daughters řekl, že jsou jeho smrtí „šokováni a zničeni“.
„Máme malý tým, který pracuje jako úzce spojená rodina. Bude nám moc chybět,“ uvedl mluvčí.
V této těžké době patří naše myšlenky a zármutek Frankově rodině a přátelům.
Louis Galicia uvedl, že Frank nejprve přespával v ubytovnách, ale že nedávno „se mu konečně začalo dařit.“
„Našel si byt, chodil s dívkou,“ řekl Louis Galicia pro KGO.
Louis Galicia řekl, že ho nenapadá, kdo by chtěl jeho mladšímu bratrovi ublížit.
Měl laskavou duši a velké srdce.
Když se chtěl spojit s rodinou, vždy nám uvařil jídlo, udělal nám večeři,“ řekl Louis Galicia.
Nikdy se nechtěl účastnit žádné hádky.
Byl to bratr, který bral věci takové, jaké jsou.
„I kdyby všechno ostatní na světě bylo špatně, on byl nebroušený diamant, který ozářil každý den“, řekl.
Pokud byste měli jakékoliv informace, volejte na linku SFPD na čísle: 415-575-4444.
České dráhy investovaly do modernizace vozidel přes 31 miliard.
Mají klimatizaci i nové toalety.
V posledních šesti letech investoval státní dopravce do modernizace vozidel přes 31 miliard korun.
Třetina vozů je v současnosti vybavena klimatizací, zhruba polovina vlaků má nový systém uzavřených WC.
Částky na modernizaci v jednotlivých letech s výjimkou roku 2012 ovšem postupně klesají.
České dráhy v posledních šesti letech investovaly do modernizace vozidel přes 31 miliard korun.
Třetina vozů je v současnosti vybavená klimatizací, zhruba polovina vlaků má nový systém uzavřených WC.
Vynaložené peníze se projevily ve snížení průměrného stáří o dva roky u lokomotiv a samostatných jednotek a o šest let u klasických vagonů.
Větší podíl investic dal dopravce do regionální dopravy, kam směřovalo zhruba 60 procent uvedených peněz, 40 procent pak společnost investovala do obnovy vozidel pro dálkovou dopravu.
Průměrné stáří lokomotiv a jednotek v současnosti dosahuje 19 let.
Modernizovaná starší vozidla jsou ale v tomto ukazateli započítána jako zcela nová.
Pokud by se modernizace vozidel nepočítaly, vzrostlo by průměrné stáří hnacích vozidel ČD o deset let.
O něco starší jsou v průměru osobní vagony, jejichž průměrný věk při započtení modernizací činí 23 let.
Pokud by se bral v úvahu jen věk od data výroby, průměrné stáří těchto vozidel by činilo 33,4 roku.
Klasické soupravy složené z vagonů a tažené lokomotivou nicméně v posledních letech z české i celosvětové železnice postupně mizí a jsou nahrazovány motorovými nebo elektrickými jednotkami.
Mezi roky 2011 a 2015 ubylo lokomotiv z 280 na 223 kusů, podobně klesl i počet klasických vagonů z 2716 v roce 2011 na 2132 v polovině letošního roku.
Dopravce se zbavoval zejména starých vozidel vybavených koženkovými sedadly a dveřmi bez možnosti zablokování otevření během jízdy.
Od ledna do července nechal dopravce sešrotovat 110 těchto vozů.
Z investic, které do vozidlového parku plánují ČD uskutečnit v blízké budoucnosti, je možné uvést například nákup 50 vagonů pro rychlost do 200 kilometrů v hodině, které dopravce plánuje nasadit na mezinárodní lince Praha - Bratislava - Budapešť, nebo rámcovou smlouvu na nákup elektrických jednotek pro tuzemské rychlíkové trati.
Smlouva počítá s odběrem až 30 kusů motorových a 20 kusů elektrických jednotek.
Úřady čtvrt roku vědí o nelegální reklamě, nedokáží se jí zbavit.
Jsme naprosto bezmocní, přiznávají.
Už čtvrt roku redakce online deníku Aktuálně.cz sleduje příběh billboardu v jižních Čechách, který nyní láká motoristy k návštěvě Lipna, kde je nejen turisticky zajímavá procházka v korunách stromů, ale i olympijský park.
Správci dálnic vědí, že tam stojí načerno, ale tvrdí, že s tím nic nezmůžou.
Podobných reklam jsou po celé zemi stovky, možná tisíce.
Podle úředníků je na vině chatrný zákon, kvůli kterému není možné nelegální mobilní billboardy hned odstranit.
Zapotřebí je napřed složité byrokratické kolečko.
Mezitím si ale firma změní jméno a úřad je na ni krátký.
Anebo stačí reklamu posunout o pár metrů a úřední proces musí začít znova.
Ředitelství silnic a dálnic před čtvrt rokem přiznalo: u hlavního tahu z Českých Budějovic na Lipno stojí na našem pozemku u státní silnice reklamní billboard načerno.
Ani tři měsíce ale úředníkům nestačily k tomu, aby se zbavili nepovolené přenosné konstrukce s obřím inzertním plakátem.
Jako by nikomu nevadilo, že stojí těsně vedle vozovky, v padesátimetrovém ochranném pásmu, kde kvůli bezpečnosti nic stát nesmí.
Správci silnic tvrdí, že si s billboardem kvůli děravému zákonu nemohou jednoduše poradit.
Třeba ho naložit a odvézt pryč.
"To si nesmíme jen tak dovolit," říká mluvčí Ředitelství silnici a dálnic Nina Ledvinová a odkazuje na složité byrokratické kolečko, které odstranění billboardu musí podle zákona předcházet.
Případ tohoto konkrétního billboardu, jehož osud začal online deník Aktuálně.cz detailně sledovat na jaře, přitom není ojedinělý a ukazuje na obecný problém, který neumí stát a úřady efektivně a rychle řešit.
Jen v jižních Čechách redakce napočítala desítky podobných mobilních reklam umístěných proti pravidlům těsně vedle vozovky nebo v její blízkosti.
Podobně jsou na tom i další kraje.
"Máme potíže firmy donutit, aby poutače odstranily," potvrzuje šéf odboru dopravy českobudějovického krajského úřadu Jiří Klása, jehož kolegové podobné příběhy řeší.
Podle Klásy je na vině děravý zákon, který úředníky svazuje.
Napřed musí složitě majitele billboardu oslovovat, aby dal reklamu pryč.
Jenže šéfové firem jsou často nedostižní anebo znají fintu, kterou už Aktuálně.cz v minulosti popisovalo, když se o problematiku začalo detailněji zajímat: stačí mobilní stojan s reklamou posunout o pár metrů a úředníci mohou předchozí výzvu k odstranění černé inzerce hodit do koše.
To proto, že úřad musí přesně určit, kde nelegální billboard stojí.
"Pokud jej někdo posune a souřadnice najednou nesouhlasí, nahlíží se na to jako na nové zařízení a musíme majitele oslovit znovu," vysvětluje Jiří Klása.
Nový zákon nepomůže.
Změnu mohl přinést nový zákon, který od září příštího roku zakáže billboardy u dálnic a omezí je i u silnic I. tříd.
Kritici poukazují na to, že pravidla pro potírání nelegálních a snadno přenositelných reklam zůstanou stejná jako dosud.
A úřadům se tak neuleví.
Firmy tak dál mohou na pronájmech nelegálních ploch vydělávat desítky až stovky milionů korun ročně a nikdo na ně nemůže.
Například billboard lákající na Lipno patří společnosti Commerz Billboard.
Úředníci ji dobře znají: českobudějovický magistrát s ní aktuálně vede tři správní řízení za načerno postavené billboardy.
Firmě hrozí v každém řízení třísettisícová pokuta.
Jedná se o více reklam, které byly bez povolení umístěny v ochranném pásmu silnice I. třídy.
Řízení dosud nejsou ukončena, říká Jaroslav Mráz, šéf odboru dopravy českobudějovického magistrátu.
Reklama, o niž se Aktuálně.cz zajímá, sice mezi těmito případy ještě nefiguruje, brzy k nim ale s největší pravděpodobností přibude.
Podle mluvčí ŘSD Niny Ledvinové firma nereagovala na opakované písemné výzvy k odstranění, a případ se tak dostane na stůl krajským a pak nejspíš magistrátním úředníkům.
Společnost Commerz Billboard patří k těm podezřelým firmám, které se nedaří kontaktovat.
Nepřebírá poštu a oficiální sídlo na Žižkově zrušila před více než šesti lety.
Není ani jasné, kdo za ní stojí.
V minulosti pošta firmy chodila k jihočeskému podnikateli Antonu Fischerovi, který proslul ostrým sporem se šéfem českého zastoupení značky Hyundai.
Fischer, jehož společnost Euro Billboard si plochy od Comerz Billboard pronajímá a nabízí je inzerentům, však v minulosti odmítl jakoukoliv spojitost.
Přitom letos na jaře, když se ŘSD začalo na podnět Aktuálně.cz zajímat o reklamu na Lipno, nechal Fischer státní úředníky poslat dopis pro tajemnou společnost Commerz Billboard do svého penzionu, kde údajně nově firma sídlí.
Ani z této adresy se ovšem nikdo správcům dálnic dodnes neozval.
Marný boj.
Podobné mlčení nebo neprůhledné změny sídel nejsou neobvyklé.
Jedné firmě jsme před několika lety postupně dali pokuty za dva miliony korun.
Jenže změnila název a IČO a nebylo co řešit.
Exekutor případ vrátil, reklamy stály dál, možná na jiných místech.
Jsme proti podobným firmám a jejich podnikatelským praktikám dost bezmocní.
Je to jako boj s větrnými mlýny, přiznává pod podmínkou zachování anonymity jeden z úředníků.
Novelu zákona v tomto ohledu zatím nikdo neřeší.
Aktuálně.cz hovořilo s několika poslanci, které problém zaujal.
Dosud ale nevyvinuli žádnou aktivitu.
Naopak se objevili poslanci, kteří chtěli prodloužit termín pro zachování billboardů u hlavních českých komunikací.
Vláda to zamítla.
Billboardy jsou nejen pro celostátní, ale i krajské a obecní politiky velmi citlivé a poněkud schizofrenní téma.
Na jednu stranu vědí o společenské poptávce po jejich omezení, na druhou stranu je sami potřebují kvůli inzerci v předvolebních kampaních.
Nezastávám ten poměrně zavedený dojem, že když něco nefunguje, tak je potřeba měnit zákony.
Zemědělci letos sklidí méně obilí, ale více řepky a máku, odhadují statistici.
Podle odhadů Českého statistického úřadu bude sklizeň obilovin letos o 6,7 procenta nižší než loni.
Přesto letošní úroda převyšuje průměr za posledních pět i deset let.
Vyšší bude naopak sklizeň řepky (o 3,9 procenta) a máku (2,5 procenta).
Sklizeň obilovin bude letos o 6,7 procenta nižší než loni.
Zemědělci sklidí 7,2 milionu tun obilí.
Vyplývá to z odhadu, který podle stavu k 15. červenci zveřejnil Český statistický úřad.
Prvotní odhad před měsícem byl pesimističtější a předpokládal desetinový pokles proti loňsku.
Loňská sklizeň obilovin ale byla nadprůměrná.
Letošní úroda převyšuje průměr za posledních pět i deset let.
Naopak vyšší bude letos sklizeň řepky a máku.
Řepky pěstitelé sklidí o 3,9 procenta více než před rokem, kdy dostali pod střechu 1,256 milionu tun.
Letošní úroda máku by mohla být o 2,5 procenta vyšší než loňská.
Předpokládaný pokles produkce obilovin je způsobený jak snížením hektarového výnosu o 3,7 procenta na 5,71 tuny z hektaru, tak poklesem osevní plochy.
Zemědělci letos oseli o tři procenta méně polí.
Pšenice ozimé, která je pro Česko nejvýznamnější obilovinou, se letos podle odhadu sklidí o 3,3 procenta méně.
Farmáři ji přitom vyseli na více polí.
Na poklesu se ale podepíše nižší hektarový výnos, který klesne na 6,04 tuny.
Zhruba pětinový pokles statistici předpokládají u ječmene jarního, který se nejčastěji používá na výrobu piva.
Za snížením úrody stojí snížení osevních ploch o 15,2 procenta, ale i nižší hektarový výnos.
Ječmene ozimého se naopak urodí o 6,3 procenta více.
Vzroste také sklizeň žita.
Úrodu řepky statistici odhadují na 1,305 milionu tuny, což je proti loňsku více.
Osevní plochy se totiž rozšířily o 7,3 procenta.
Hektarový výnos ale bude o 3,2 procenta nižší než loni.
Letošní úroda řepky převýší desetiletý průměr o 13,3 procenta, zaseta je přitom na ploše o třetinu rozsáhlejší než před deseti lety.
V posledních čtyřech letech také přibývá polí s mákem.
Letos ho farmáři vyseli na 35.543 hektarech.
Proti roku 2008, kdy se mák v Česku pěstoval na rekordních 70 000 hektarech, je ale polí polovina.
Díky rozšíření osevních ploch bude letošní sklizeň máku bohatší.
Stoupne proti loňsku o 2,5 procenta na 27 423 tun.
Hektarový výnos ale bude o 6,1 procenta nižší.
Olomoučtí policisté obvinili dva muže za útok nožem a mačetou, soud je poslal do vazby.
Policie obvinila dva útočníky, kteří v úterý v centru Olomouce napadli nožem a mačetou pětatřicetiletého muže.
"Přestože se napadený snažil utéct, způsobili mu sečné a řezné zranění, které si vyžádalo ošetření v nemocnici a další léčení," uvedla policejní mluvčí Marie Štrbáková.
Oba zřejmé pachatele bezprostředně po útoku zadrželi policisté.
Žalobce podal návrh soudu na jejich vzetí do vazby a soud mu v pátek vyhověl.
Oběma mužům hrozí tři až deset let vězení.
Policisté obvinili dva zadržené z napadení pětatřicetiletého muže v centru Olomouce nožem a mačetou.
Útočníci mu způsobili sečná a řezná poranění, muž skončil v nemocnici.
Útoku předcházel incident mezi dvěma skupinami lidí, který se stal v úterý v pravé poledne na třídě Svobody, uvedla policie.
Pachatelé skončili ve vazbě, informovala olomoucká policejní mluvčí Marie Štrbáková.
Hromadná potyčka mezi dvěma rodinami se odehrála v prostoru zahrádky před barem Tratorie v bezprostřední blízkosti centra Olomouce.
Po agresivní slovní rozepři napadli dva útočníci za pomocí nože a mačety pětatřicetiletého muže.
Přestože se napadený muž snažil utéct, způsobili mu sečné a řezné zranění, které si vyžádalo ošetření v nemocnici a další léčení, uvedla policejní mluvčí.
Při potyčce, která vzbudila v centru města velkou pozornost a kvůli které muselo na místě zasahovat několik policejních hlídek i strážníků, šlo o rodinné spory.
Kriminalisté čtyřiatřicetiletého muže ze Slovenska a sedmatřicetiletého muže z Olomouce obvinili z pokusu těžkého ublížení na zdraví a výtržnictví.
Žalobce podal návrh soudu na jejich vzetí do vazby a soud mu v pátek vyhověl, doplnila mluvčí.
Mačetu použili v centru Olomouce při hromadné bitce útočníci také před pěti lety, stalo se to tehdy jen pár desítek metrů dále, před diskotékou Varna v Riegrově ulici.
Policisté tehdy uvedli, že skupina zhruba deseti cizinců se zbraněmi napadla hosty podniku, kteří stáli před vchodem.
Podle policie měli v rukou nože, hole a mačety.
Soud poté dva útočící cizince potrestal podmíněným trestem.
Opuštěné a prázdné domy v centru Prahy.
Budete překvapeni, možná kolem nich denně chodíte.
Jeden z nejkřiklavějších příkladů nevyužitého a prázdného domu je rozlehlá budova bývalého sídla IPB vprostřed Senovážného náměstí.
Ta už měla dávno fungovat jako hotel.
Jenže pořád nic.
Že je potřeba stavět v metropoli nové a nové byty a kanceláře?
A co využít stávající, často architektonicky cenné a chráněné?
Přímo v centru Prahy v bezprostředním okolí Václavského náměstí je několik činžovních domů, které i přes svou polohu, velikost a často i památkovou ochranu jen pustnou a zejí prázdnotou.
Nemovitosti v centru jsme vybrali pomocí projektu Prázdnédomy.cz, který mapuje dlouhodobě prázdné nemovitosti na území Česka.
Domy jsou obvykle obětí finančních problémů svých majitelů, neprůhledných vztahů mezi firmami nebo patří státu, který se jich neumí či nechce zbavit.
Prázdných domů je v Česku víc než bezdomovců.
Ať za ně majitelé platí speciální daň, chce iniciativa
Málem tu zastřelili Fidela Castra, žil tu i Hitlerův bratr.
Spisovatelé ukázali jinou Malou Stranu.
Nákupní apokalypsa.
Obchodní centra v USA zejí prázdnotou.
Na procházce Prahou Neznámou.
Karlín byl luxusním předměstím.
Územním plánem připomíná newyorský Manhattan, tvrdí architekt.
Manželé Clintonovi loni vydělali 10,6 milionu dolarů.
Trump odmítá zveřejnit své daňové přiznání.
Hillary Clintonová a její manžel, exprezident Bill Clinton v loňském roce vydělali 10,6 milionu dolarů.
Více než milion dolarů věnovali Clintonovi na charitu.
Většina příjmů Clintonových - přes šest milionů dolarů - je za jejich projevy.
Trump své daňové přiznání publikovat odmítá.
Kandidátka amerických demokratů na prezidentský úřad Hillary Clintonová v pátek zveřejnila své daňové výkazy, čímž zvýšila tlak na svého republikánského soupeře Donalda Trumpa, aby učinil totéž.
Hillary Clintonová a její manžel, exprezident Bill Clinton v loňském roce vydělali 10,6 milionu dolarů, oznámila agentura AP.
Většina příjmů Clintonových - přes šest milionů dolarů - je za jejich projevy, a to převážně z období před dubnem 2015, kdy Clintonová zahájila svou kampaň před volbami.
Daňová zpráva ukázala, že manželé Clintonovi odvedli loni federální daň z příjmu ve výši 34,2 procenta a dále pak daň z příjmu na státní a místní úrovni ve výši devět procent.
Celkem tedy zaplatili na daních 43,2 procenta příjmu.
Trump má ale s podobným krokem problém, dosud se ke zveřejnění daňového přiznání neodhodlal.
Je jistá možnost, že Donald Trump neplatí vůbec žádné daně, napsala Clintonová na twitteru pár minut po zveřejnění svého přiznání.
Clintonová se opakovaně vrací k tajnostem kolem Trumpových příjmů, mimo jiné proto, aby vyvolala pochybnosti, zda je její soupeř skutečně tak bohatý, jak tvrdí, uvedla agentura AP.
Trumpovo jmění se odhaduje na miliardy dolarů.
Nižší výdělek by poškodil pověst republikánského kandidáta jako úspěšného podnikatele.
Senátor Tim Kaine, který v tandemu s bývalou první dámou kandiduje na post viceprezidenta, dnes zveřejnil zprávu o svých daňových odvodech za posledních deset let.
Společně se svou manželkou Anne Holtonovou dali 7,5 procenta svých výdělků na charitu a na daních loni odvedli 25,6 procenta výdělku.
V Nigérii znovu propukla obrna.
Islamisté z Boko Haram bránili důslednému očkování a lékaře zabíjeli.
V Nigérii se znovu objevily případy dětské obrny.
Na severovýchodě země tam vláda vyhlásila mimořádné očkování, neboť zde dvě děti nakažené touto nemocí ochrnuly.
Vakcíny tam dopravily vrtulníky.
V zasažené oblasti působili islamističtí teroristé z Boko Haram, kteří očkování bránili a lékaře dokonce zabíjeli.
Podle Světové zdravotnické organizace (WHO) tam virus nepozorovaně koloval.
Na severovýchodě Nigérie začne mimořádné očkování dětí proti obrně, protože tam ochrnuly dvě děti nakažené touto nemocí.
V Africe byla obrna naposledy diagnostikována před dvěma lety v Somálsku.
Nigerijská vláda oznámila, že ve státě Borno bude naočkován milion dětí a další čtyři miliony ve státech okolních.
Nigerijské vojenské vrtulníky v pátek podle agentury AP rychle dopravily vakcíny proti dětské obrně do zasažené severovýchodní části země, kde působí islamističtí teroristé z Boko Haram.
Světová zdravotnická organizace (WHO) uvedla, že virus v oblasti mnoho let nepozorovaně koloval.
Extremisté z Boko Haram v minulosti bránili očkování a lékaře dokonce zabíjeli.
Jejich útoky také ve čtvrtek znemožnily, aby se lékaři dostali do oblastí, kde byly zjištěny děti s obrnou.
Obě postižená batolata přišla s uprchlíky z části Nigérie nově osvobozené od Boko Haram.
Ředitel sekce WHO odpovídající za vymýcení obrny Michel Zaffran stanici BBC řekl, že očkování v Nigérii začne už příští týden.
Ve státě Borno dlouho působila islámská radikální skupina Boko Haram.
Oblast byla mezinárodním organizacím a vládě zpřístupněna až začátkem letošního roku, kdy se podařilo Boko Haram v této části země zásadním způsobem oslabit.
Nigerijský ministr zdravotnictví Isaac Adewole přiznal, že nové případy obrny jsou pro zemi velkým zklamáním, protože Nigérie chtěla příští rok ohlásit, že v ní byla obrna vymýcena.
WHO upozornila, že je možné, že ačkoli se nemoc dva roky neobjevila, přesto se mezi dětmi šířila.
Očkovány nyní budou děti ve věku do pěti let.
V roce 2012 připadala na Nigérii polovina všech případů obrny na světě.
Zatímco v roce 1988 byla obrna ještě ve 125 zemích, nyní přetrvává už jen ve třech oblastech - v Afghánistánu a Pákistánu a na severu Nigérie.
Papež se v Římě setkal s bývalými prostitutkami.
Naslouchal pohnutým příběhům padlých žen.
Papež František se setkal s dvaceti bývalými prostitutkami, které díky policii unikly z gangu pasáků.
Papež si vyslechl jejich těžké životní příběhy a vyzval je, aby s důvěrou hleděly do budoucnosti.
František chtěl tímto setkáním upozornit na obchodování s lidmi a vyzvat k zesílení boje proti němu.
Papež František se v Římě setkal s dvaceti bývalými prostitutkami, které policie osvobodila z moci gangu pasáků.
Hlava katolické církve více než hodinu naslouchala pohnutým příběhům padlých žen a následně je vyzval, aby s důvěrou hleděly do budoucnosti, uvedl mluvčí Vatikánu.
Mezi bývalými prostitutkami, které František navštívil, bylo šest žen z Rumunska, čtyři z Albánie, sedm z Nigérie a po jedné z Tuniska, Itálie a Ukrajiny.
Jejich průměrný věk se pohybuje kolem 30.
Všechny byly podle Vatikánu během nucené prostituce vystaveny krutému fyzickému násilí.
Návštěvou chtěl František upoutat pozornost k obchodování s lidmi a vyzvat k zesílení boje proti němu, uvedl papežův mluvčí.
František často upozorňuje na osudy lidí na okraji společnosti.
Ve čtvrtek například poobědval se syrskými uprchlíky, kteří dorazili do Vatikánu letos v dubnu a v červnu díky jeho osobnímu pozvání.
Francie udeří na výrobny džihádistů.
Bez pomoci muslimů to ale nepůjde.
Francii mají v boji proti radikálnímu islamismu pomoci sami muslimové.
Vláda premiéra Manuela Vallse navíc chystá zásadní změny ve fungování mešit i vzdělávání duchovních.
Od loňského prosince jsme zavřeli 20 mešit a modliteben.
A další budou následovat, oznámil ministr vnitra.
V zemi funguje přes sto výroben džihádistů.
"Pokud muslimové nebudou pomáhat státu v boji proti těm, kteří narušují veřejnou svobodu, bude pro Francii stále těžší zaručit tomuto vyznání svobodu," prohlásil premiér Manuel Valls.
Zajistit hodlá zejména to, aby v mešitách a modlitebnách kázali pouze imámové, kteří se vzdělávali ve Francii.
Současně chce zastavit financování mešit ze zahraničí.
Momentálně přichází z ciziny asi 20 procent peněz na výstavbu nových mešit, nejvíc z Maroka, Alžírska a zemí Perského zálivu.
I kvůli tomu se pak do mešit dostávají kazatelé, kteří mohou ve Francii rozsévat radikalismus.
"Naše země musí ukázat, že islám je s demokracií slučitelný," dodal premiér.
Klíčem, který mu zajistí splnění těchto cílů, bude nová Francouzská islámská nadace.
Ta by měla fungovat jako most mezi sekulárním státem a muslimskou menšinou.
Už žádné peníze z ciziny.
V zemi teď působí Francouzská nadace pro islám, kterou v roce 2005 založil tehdejší premiér Dominique de Villepin.
Už tehdy měla nadace přispět k zprůhlednění finančních toků mezi mešitami a zeměmi, které jejich výstavbu financují.
Jenže instituci brzy zasáhly vnitřní rozpory a rivalita.
"Je to totální neúspěch," konstatoval nedávno Valls.
Na francouzské politické scéně se už po útoku na časopis Charlie Hebdo v lednu 2015 rozhořela debata o nové instituci, která nefunkční nadaci nahradí.
Vše uspíšily další teroristické útoky ve Francii, které ve jménu Islámského státu provedli zradikalizovaní islamisté.
Francouzský ministr vnitra Bernard Cazeneuve se nedávno nechal slyšet, že nová nadace vznikne už letos v říjnu.
Bude mít dva hlavní úkoly - zajistit financování mešit z domácích zdrojů a také dohlížet na imámy.
Prozatím není jasné, kde bude brát peníze nejen na výstavbu nových mešit, ale také různých vzdělávacích center.
Zvažuje se ale několik návrhů.
Jedním z nich je speciální poplatek nebo daň na halal potraviny.
Tu by v praxi platili prodejci halal jídla, a to za poskytnutí certifikace.
Část z těchto peněz by pak putovala právě do kasy nadace.
Příspěvek deset až dvacet eur (270 až 540 korun) by pak mohli platit francouzští poutníci, kteří se vydají do Mekky.
Každý rok jich tam na tradiční pouť do Saúdské Arábie jede asi 30 000.
A nejen to.
Podle premiéra by v mešitách v budoucnu měli působit pouze kazatelé, kteří prošli speciálními vzdělávacími programy na francouzských univerzitách.
To by mělo zajistit, aby kázání bylo v souladu s demokracií.
Radikální mešity zavřeme.
Francouzská vláda je současně v tažení proti radikálům.
A další budou následovat, oznámil nedávno ministr vnitra.
Ve Francii není místo pro ty, kteří v mešitách hlásají nenávist a nerespektují některé principy naší země, jako je rovnost mezi ženami a muži.
V zemi podle odhadů působí asi 2500 mešit a modliteben.
Odhaduje se, že asi 120 z nich je pod vlivem radikálního islamismu.
Od roku 2012 úřady vyhostily zhruba 80 imámu a u několika dalších desítek to zvažují.
Ne všichni si ale myslí, že kroky vlády dokážou výrazně zasáhnout proti radikalismu.
Ti, kteří se chtějí radikalizovat, to udělají stejně.
Nedochází totiž k tomu v mešitách, mladí lidé se radikalizují na internetu, uvedla Severine Labatová, expertka z Národního centra pro vědecký výzkum.
Dráhař Kelemen prohrál v 1. kole sprintu s hvězdou Baugém.
O postup do osmifinále musí český dráhový cyklista zabojovat v opravných jízdách.
Dráhový cyklista Pavel Kelemen na olympijských hrách v Riu de Janeiro po postupu z kvalifikace sprintu mezi nejlepších osmnáct prohrál v 1. kole souboj s francouzským velikánem Grégorym Baugém, obhájcem stříbra z minulých her v Londýně.
O postup do osmifinále musí zabojovat v opravných jízdách.
Na start královské disciplíny na dráze se postavilo 27 jezdců a nejlepší český dráhař současnosti si připsal čtrnáctý nejlepší čas.
Dvoustovku s letmým startem stihl za 9,969 sekundy.
V hlavní vyřazovací fázi ho tak čekal v kvalifikaci pátý Baugé, jenž už má z Ria bronz v týmovém sprintu.
Kelemen sice v závěru dotíral na zkušeného Francouze, ten si však postup pohlídal.
Skvělým výkonem se blýskl obhájce zlata Jason Kenny.
Osmadvacetiletý Brit zajel třetí nejrychlejší dvoustovku historie a kvalifikaci vyhrál v olympijském rekordu 9,551.
Snadno si pak podle očekávání poradil také s posledním postupujícím, jímž byl Němec Maximilian Levy.
Dařilo se i britskému kvartetu v sestavě s Bradleym Wigginsem, jež ve stíhacím závodu na 4 km zajelo nový světový rekord 3:50,570 a postoupilo do finále.
Dosavadní maximum (3:51,659), které Britům patřilo čtyři roky od olympiády v Londýně, vylepšili o více než vteřinu.
Mladí lékaři tlačí: Chtějí čerstvý vítr v oboru
Zástupci mladých lékařů se sešli, aby schválili nové kroky v jejich sporu o novou smlouvu.
Rada mladých lékařů (JDC) při Britské lékařské asociaci (BMA) musí požádat celou radu o podporu dalších oborových akcí ze začátku září.
JDC říká, že ministrům se otázky ohledně smlouvy nepodařilo vyřešit.
Mladí lékaři a studenti medicíny v červenci odhlasovali odmítnutí smlouvy dohodnuté s BMA.
Byla odmítnuta 58 % jejích členů, kteří se volby účastnili.
V dopise členům uveřejněném ve čtvrtek v noci na Twitteru předsedkyně JDC Ellen McCourtová uvedla, že vláda zůstala „i nadále potichu“ k otázkám, což veldo k zamítnutí kontraktu.
Řekla: „V tomto světle orgán výkonné moci JDC hlasováním rozhodl navrhovanou novou smlouvu zcela zamítnout a žádat nová formální jednání ve všech otázkách.“
V odpovědi na mlčení ze strany vlády dnes výkonná rada JDC formálně požádala o zvláštní setkání rady BMA s cílem schválit běžící program vyhrocených oborových akcí ze začátku září.
Spor vedl mladé lékaře letos k vyhlášení do šesti stávek, včetně prvních generálních stávek v historii NHS.
Lídr mladých lékařů v BMA, Dr. Johann Malawana, rezignoval po rozhodnutí o zamítnutí dohodnutých podmínek smlouvy, které BMA doporučila.
Členům BMA na setkáních před hlasováním před 54 000 mladými lékaři a studenty medicíny řekl, že dohoda byla dobrá a měla by být přijata.
Po hlasování ministr zdravotnictví řekl, že smlouva by znamenala pro mediky v Anglii zátěž.
Rusko a Turecko: Spojenectví „neslučitelných“?
Bylo to gesto, které skončilo krizí.
Lídři Ruska a Turecka se sešli v úterý, aby si podali ruce a oznámili formální ukončení osm měsíců dlouhé slovní války a ekonomických sankcí.
Ale zatímco Vladimír Putin přivítal tureckou protistranu v přepychové hale paláce v Petrohradě, měl jsem dojem, že Ankara chce touží po tomto usmíření víc.
Došlo na podání rukou, ano.
Ale Putin se neusmíval a sotva z něj vyzařovala vřelost, a to i podle jeho odměřených standardů.
Recep Tayyip Erdogan naopak opakovaně mluvil o svém „drahém příteli“ panu Putinovi - pětkrát, jak uvádí jedna ze zpráv.
Nepočítal jsem to.
Také slíbil, že vztahy s Ruskem se nejen vrátí na svou úroveň před krizí, ale budou ještě lepší.
Další den jedny z místních novin napsaly, že se Erdogan choval, jako by se nic zlého nikdy nestalo.
Podle mě jeho nadšení prozrazovalo přesný opak.
Ale přetrvávající chlad, který vyzařoval z Putina, ukázal, že ruský lídr nezapomněl nic.
Skutečnou příčinou krize byla první věc, kterou zmínil ve své úvodní řeči: Sestřelení ruského bojového letounu Tureckem na syrských hranicích.
Reakce Moskvy tehdy byla zuřivá.
Putin rozdával rány okolo sebe a Ankaru obvinil z toho, že Moskvě vrazila nůž do zad.
Pohoršení bylo o to větší, že přišlo od domnělého přítele.
Znovu vybudovat skutečnou důvěru bude obtížné, možná dokonce nemožné.
Ruské veřejné mínění se od prosince také změnilo.
Státem kontrolovaná média po měsíce vedla masivní celoplošnou kampaň proti Ankaře.
Najednou to vypadalo, jako by Turci mohli za všechno.
Závažnější byla obvinění od vrcholných státních představitelů o tom, že Erdoganova vlastní rodina měla prospěch z ilegálního obchodu s ropou v částech Sýrie kontrolovaných takzvaným Islámským státem.
Ten toto důrazně popřel.
Ale v Petrohradě přišlo oficiální poselství, že je čas pohnout se dál.
Konec konců, k tomuto setkání došlo pouze proto, že Putinovi se dostalo omluvy, kterou od prezidenta Erdogana žádal.
Rusko mohlo vyhlásit jakés takés vítězství.
Pro Ankaru jsou přínosy vyhlášení příměří jasné.
V první řadě byl Erdogan byl minulý měsíc během nezdařeného puče téměř zbaven moci a proto potřebuje všechny své přátele.
Opakované teroristické útoky v Turecku jím viditelně také otřásly.
Existuje také ekonomický motiv.
Ruské sankce měly tvrdý dopad - především zrušení charterových letů, které každoročně přepraví několik milionů ruských turistů na pobřeží Turecka.
Tento počet se snížil téměř o 90 %.
Pokud jde o Rusko, tour operátoři a charterové společnosti zde si dozajista oddechnou, když případně dojde k obnovení letů.
Vydělávají na středomořském cestovním ruchu v závěru sezóny.
Dokonce i tento týden státní televize slibovala levnější ovoce a zeleninu, až bude znovu dovoz zemědělských komodit z turecka povolen.
„Turisté tam, rajčata zpět sem,“ jak to hlásala zpráva v novinách Vedemosti.
Návštěva ale měla pro Moskvu další politickou hodnotu.
Ankara se na Západ zlobí za to, co považuje za chabou reakci na pokus o převrat.
Kromě toho, dlouhotrvající nevraživost zdlouhavé rozhovory o vstupu do EU a vstup Putina - který dychtí po tom, aby mohl ochlazení využít a přetrhat pouta Turecka se Západem.
Ruský lídr zcela jistě získal bonusové body, když jej Ankara požádala o pomoc zvolených orgánů po pokusu o puč.
Musíte pochopit, že pro Moskvu, která má hluboko zakořeněný strach ze změny režimu, je to dané.
Takže summit v tomto pompézním, přímořském paláci Rusku a Turecku umožnil předvést, co mi jeden z analytiků popsal jako „spojenectví neslučitelných“: jak spojují síly dvě země, které se cítí být odmítnuty a využívány Západem.
Ovšem navzdory tomu, že veřejně ukázaly vzájemné usmíření, jsou mezi těmito dvěma zeměmi zásadní rozdíly.
Prvním je Sýrie, kde se Moskva před nedávnem stavěla do role mírotvorce, ale kde Rusko a Turecko stojí na opačných stranách.
Dalo by se říct, že po téměř tříhodinových úvodních rozhovorech oba prezidenti na tiskové konferenci uvedli, že se o této otázce ani nezmínili.
Turecký prezident se záměrně vyhl odpovědi na otázku ohledně rozdílů mezi nimi, zatímco Putin se rozhodl tyto rozdíly vyzdvihnout.
Neexistuje žádná jasná dohoda, na základě které by oba státy mohly najít společnou řeč v otázce Sýrie.
Ale po měsících otevřeného nepřátelství - a vzhledem k riziku naprosté katastrofy, když člen NATO Turecko sestřelilo ruský bojový letoun - je zajisté lepší, že spolu oba lídři znovu alespoň mluví.
Royal Bank of Scotland zmizí pro zákazníky mimo Skotska
Podle výkonného ředitele banky má být značka RBS potlačena do role back office.
Royal Bank of Scotland se ztratí pro zákazníky mimo Skotska.
Ross McEwan řekl stanici BBC Scotland, že značka RBS byla spojena s globálními ambicemi banky.
Z nich polevila, když před osmi lety téměř zanikla a musela být vykoupena z dluhu.
V té době strategové značky používali „RBS“ s cílem chránit ostatní značky spotřebitelských financí.
Stály za ní miliony liber vydaných na sponzoring mezinárodního sportu, od ragbyového šampionátu Six Nations po šampióna Winbledomu Andyho Marraye.
Nyní ale bylo rozhodnuto, že je lepší dát více vyniknout spíš národním značkám.
Royal Bank of Scotland se bude používat u skotských zákazníků, ale nebude spouštět nové obchody.
Všechny reference na RBS v Anglii a Walesu, s výjimkou centrály a kódování akcií na burze, budou změněny na NatWest.
Pro zákazníky v Irské republice a v Severním Irsku se již používá značka Ulster Bank.
Existují zde jiné, menší značky pro privátní bankovnictví, které se dostanou více do popředí - Coutts, Adam & Co, Drummond, a Holt's Military Bank.
Během cest k zákazníkům a zaměstnanců v Inverness-shire nám McEwan odpovídal na otázky Ross McEwan.
Stanici BBC Skotsko řekl: „Značka RBS přestane být naší investorskou značkou a značkou, pro kterou naši zaměstnanci pracují, protože se nyní mnohem víc stáváme bankou značek.“
Protože se banka sama stala globální značkou, stalo se globální značkou i RBS.
Nyní říkám, že již globální aspirace nemáme, máme snahy zaměřené na domácí scénu.
Každá z těchto značek bude ve svých vlastních komunitách znamenat něco zcela odlišného a naši pracovníci budou pracovat pod těmito značkami.
RBS již uvedla, že nebude pokračovat ve svém sponzoringu šampionátu Six Nations, připravila profil jednotlivých značek sponzoringu sportu.
„Nastala pro nás vhodná doba, abychom se posunuli k bance značek, protože základní otázkou (kterou si klademe) je, jakým způsobem se zaměřit na to, abychom se stali lepší bankou pro zákazníky?“ uvedl výkonný ředitel.
Před třemi lety by bylo velmi cynické, kdybychom řekli, že se staneme skvělou bankou pro zákazníky a ty značky představili.
Ale spolu s tím, jak jsme se zaměřovali na potřeby zákazníků, a ne na naše vlastní, si myslím, že dochází ke spoustě změn.
Můžeme tyto značky znouvu připomenout, myslím, že nadešel ten správný čas.
Frankie Dettori v Newmarketu na koni Predilection dovedl do cíle 3000. vítěze
Dettori rozstřikuje šampaňské poté, co mu dvojité vítězství v Newmarketu přineslo 3000 vítězství
Žokej Frankie Dettori si v pátek zajistil 3000. vítězství v Británii v Newmarketu.
Tohoto milníku dosáhl svým druhým vítězstvím večera na své lokální trati - na koni Predilection, kterého trénuje John Gosden.
Pětačtyřicetiletý Ital je šestým žokejem, který takového výsledku dosáhl v rovinových dostizích.
Jeho předchůdci jsou Sir Gordon Richards, Doug Smith, Lester Piggott, Pat Eddery a Willie Carson.
Trojnásobný šampión žekje Dettori, který dříve vyhrál na koni Ghayyar, řekl: „Je to zvláštní.“
Jsem velmi dojatý, protože je zde také moje rodina
Jsem nesmírně rád, že k tomu došlo v Newmarketu, protože právě zde jsem před 30 lety zakotvil.
Není to ohromná akce, není to Royal Ascot - je to páteční noc na zemi se 20 000 lidmi.
Ulevilo se mi a jsem velmi vděčný.
Dettori sbírá gratulace, když po vítězství přivádí Predilection
Dva žokejové tohoto milníku dosáhli v překážkových dostizích - šampion žokej Richard Johnson a 20násobný šampion na penzi Sir Anthony McCoy, které během své kariéry lámající rekordy dovedl do cíle více než 4 300 vítězů.
Lester Piggott, devítinásobný vítěz Derby, 4 493 vítězů v kariéře
Frankie je jedním z nejlepších žokejů moderní doby a není překvapením, že dosáhl milníku, kterého před ním dosáhlo pouze několik jezdců.
Je stylový a silný, ale je to právě jeho taktický fištrón, který ho od ostatních jezdců ve vážnici odlišuje.
Je fantastickým ambasadorem dostihů, jeho nadšení a charisma přitahovaly fanoušky k tomuhle sportu dlouhé roky.
Před několika týdny jsem Frankiemu v Epsomu řekl, že kdyby nejezdil pouze o víkendech a velké dostihy, tak by měl již 6 000 vítězů!
Ovšem pravdou je, že Frankie jezdil vítěze ve Velké Británii po větší část své 30leté kariéry, a to je opravdu něco.
Má živou povahu, což je pro britský dostihový sport dobré. Ale důležitější je, že je neuvěřitelným žokejem.
Frankie Dettori svůj úspěch oslavil svých pověstným letmým seskokem
Od letmých finišů po letmé seskoky - Frankie Dettori byl poslíčkem britských rovinných dostihů dvě dekády.
Bylo to jako jízda na horské dráze.
Nepřeberná množství vítězů velkých závodů, včetně jeho známé „velkolepé sedmy“ v Ascotu. Přežil ale také havárii letadla a měl zákaz startu kvůli drogám.
Před třemi lety poprvé stagnoval, když se vracel po 6měsíčním zákazu startu, ale prokázal neuvěřitelnou vnitřní sílu a všem pochybovačům navzdory se vrátil v nejlepší formě.
A možná to nebude naposledy - Dettori již dříve prohlásil, že by rád pokračoval v závodění alespoň až do 50 let.
Ruský prezident Putin propustil šéfa prezidentské kanceláře Sergeje Ivanova
Ruský prezident Vladimir Putin v pátek nečekaně propustil Sergeje Ivanova z postu šéfa prezidentské kanceláře.
Ivanov byl jedním z nejbližších Putinových spolupracovníků po mnoho let.
Třiašedesátiletý Ivanov byl jmenován zvláštním zástupcem pro ekologii a dopravu.
V prohlášení z Kremlu se uvádí, že Putin „uvolnil Ivanova z jeho služeb hlavy ruské prezidentské kanceláře,“ ale nebyl uveden důvod.
Jeho místo převezme Anton Vajno, který byl Ivanovovým zástupcem od roku 2012.
Čtyřiačtyřicetiletý Vajno byl dříve diplomatem.
Narodil se v hlavním městě Estonska Tallinnu v roce 1972, promoval na prestižním Státním institutu mezinárodních vztahů v Moskvě (MGIMO) a pracoval na ambasádě v Tokiju.
Na webových stránkách (v ruštině) se uvádí, že později dělal šéfa prezidentského protokolu a prezidentské kanceláře.
Při jmenování Putinovi řekl:„Děkuji Vám za Vaši důvěru.“
Domnívám se, že nejdůležitější úlohou administrativy je podporovat Vaše aktivity hlavy státu ve smyslu návrhu zákonů a kontroly toho, do jaké míry jsou dodržovány Vaše pokyny.
Putin v pátek ruské televizní stanici uvedl, že Ivanov jej požádal o uvolnění z postu a doporučil, aby jej nahradil právě Vajno.
Přesvědčí úsměvy?
Tenhle krok zcela mystifikoval Moskvu.
Sergej Ivanov byl podlouhou dobu jedním z nejbližších spolupracovníků Vladimira Putina a stejně jako Putin pracoval pro KGB.
Jako šéf prezidentské kanceláře byl jedním z nejmocnějších mužů v zemi.
Na setkání s prezidentem Putinem, které odvysílala státní televize, oba muži prohlásili, že z postu šéfa prezidentské kanceláře odchází na vlastní žádost.
Ale úsměvy do kamer přesvědčily jen několik málo lidí - především nyní, těsně před parlamentními volbami.
Jedná se tedy o důsledek nějakého boje o moc?
To zatím nikdo neví.
Ale oficiální tvrzení, že muž, o kterém se kdysi uvažovalo jako o možném prezidentovi, touží najednou vést ekologickou politiku Ruska, se setkalo s velkou nedůvěrou.
Na stránkách Kremlu jsou citovány poznámky určené Putinovi, ve kterých Ivanov uvádí: „Je pravdou, že v roce 2012 jsem Vás v rozhovoru požádal, abyste mi tento velmi náročný post, dokonce by se dalo říct problematický post, svěřil na čtyři roky.
Jak se zdá, byl jsem šéfem prezidentské kanceláře čtyři roky a osm měsíců.
Ivanov se postu ujal v prosinci 2011.
Předtím zastával funkci místopředsedy vlády a ministra obrany.
Je členem Ruské bezpečnostní rady a dříve, podobně jako Putin, pracoval pro výbor státní bezpečnosti (KGB).
Na konci 90. let, když Putin velel Federální službě bezpečnosti Ruské federace (FSB), která nahradila KGB, byl Ivanov jmenován jeho zástupcem.
Když Putin nastoupil k moci, jmenoval Ivanova jedním ze svých pěti nejbližších spolupracovníků.
Svého času se dokonce spekulovalo o tom, že by se Ivanov mohl stát nástupcem Putina v čele státu po jeho druhém volebním období, protože třetí období by pro Putina bylo protiústavní.
Tento post ale převzal jiný blízký Putinův spolupracovník Dmitrij Medveděv.
Putin se před návratem do prezidentského úřadu o pouhé tři a půl roku později stal premiérem.
Thomas Gibson, hvězda seriálu Myšlenky zločince, byl propuštěn po té, co uhodil režiséra
Gibson se minulý měsíc V Los Angeles zapletl do fyzické výměny názorů na scéně.
Televizní stanice ABC a CBS, které seriál produkují, ve společném prohlášení jeho propuštění oznámily.
Gibson, který hrál zvláštního agenta Aarona Hotchnera, se ve čtvrtek před oznámením jeho vyhazovu omluvil.
Došlo ke vzniku kreativních rozdílů na scéně a k neshodám.
Je mi líto, že k tomu došlo,“ řekl v prohlášení.
Podle prohlášení televizních stanic ABC a CBS jsou podrobnosti o tom, jakým způsobem postava Gibsona zmizí ze seriálu, který sleduje příběhy týmu agentů FBI, o něco později.
Čtyřiapadesátiletý herec, kterého proslavila hlavní role v sitcomu Dharma a Greg, v seriálu účinkoval od první série v roce 2005.
„Miluji Myšlenky zločince a během posledních dvanácti let jsem do nich dával srdce i duši,“ uvedl Gibson ve svém prohlášení, které vydal v pátek.
Doufal jsem, že v něm budu až do konce. To ale teď nebude možné.
Chtěl bych ještě vyjádřit svůj dík autorům, producentům, hercům, našemu úžasnému týmu a především skvělým fanouškům, v jaké kdy tahle show mohla doufat.
Návrat seriálu do dvanácté série se očekává 28. září.
Ve městě Banff záhadně přistály v zahradě ryby
Muž z městečka Banff požádal o pomoc při identifikaci ryb, které se objevily v jeho zahradě.
Kevin Bain se domnívá, že 75 kusů ryb mohou být píseční úhoři, které tam zanechala vodní smršť.
Bain, který žije asi 500 metrů od moře, na kanálu Periscope uveřejnil krátký film svého nálezu v domnění, že by mu někdo mohl pomoci objasnit, jak se asi 5centimetrové rybky na jeho zahradu dostaly.
Queensferry Crossing: Most nyní spojuje s Fife
Projekt za 1,35 mld. liber má být dokončen do května 2017
Inženýři propojili severní plošinu a Queensferry Crossing a viadukt - most tedy nyní spojuje s Fife.
Jde tedy o první ze čtyř uzávěr mezi „vějíři plošin“, které jsou nyní téměř dokončené okolo každého ze tří pylonů mostu.
Část mostu od Fife je nyní dlouhá 600 metrů a váží 30 000 tun.
Je v ní 10 000 tun železa a 20 000 tun betonu a 46 závěsných lan.
Projekt za 1,35 mld. liber má být dokončen do května 2017.
Ekonomický tajemník Keith Brown stavbu dnes navštívil a byl mezi prvními, kteří přišli z pevniny na most.
Řekl: „Toto je historický okamžik a symbolický okamžik budování Queensferry Crossing.
Na tomto projektu jsme všichni svědky toho, jak stavební inženýři v skutku impozantním měřítku použili více než 30 000 tun betonu a oceli ke konstrukci této části mostu.
Navzdory masivním rozměrům a hmotnosti mostu bylo dokončení uzávěry mezi viaduktem a plošinou mostu delikátní operací, která vyžadovala mimořádnou přesnost.
Na svém místě je nyní celkem více než 79 % celkové plochy mostu, beton pro poslední části plošiny se nyní odlévá v Rosythu, takže celá plošina je připravena k vyzdvihnutí na most.
Michael Martin, vedoucí projektu Forth Crossing Bridge Constructors, řekl: „První uzávěra při stavbě každého mostu je vždy důležitým milníkem.
Na tomto úžasném projektu tato uzávěra představuje špičku pozemního stavitelství.
Po instalaci poslední části silniční plošiny a jejím připojení k rozšiřující plošině North Tower jsme pak museli uzavřít poslední mezeru na severní straně - směrem na pevninu.
Toto jsme udělali protažením severního přibližovacího viaduktu 700 milimetrů jižním směrem.
Toto byla masivní a současně velice delikátní operace.
Masivní proto, že viadukt je dlouhý 222 metrů, váží asi 6 000 tun a bylo nutné jej táhnout se stoupáním asi 3 %.
Delikátní proto, že tolerance, se kterými tým pracoval, byly velmi malé - pouze několik milimetrů každým směrem.
Všechno šlo naštěstí velmi dobře.
Záchrana v Moelfre Bay: Tři muži jsou „šťastní, že jsou naživu“
Tři muži jsou „šťastní, že jsou naživu“ poté, co je spláchla voda z jejich rybářské lodi u Anglesey.
Stanice záchranných člunů Moelfre RNLI vyhlásila poplach v pátek ve 13:20 britského letního času poté, co posádka incident v zátoce Moelfre viděla.
Všichni tři muži se snažili doplavat do bezpečí, zatímco jejich člun pokračoval neřízeně dál.
„Viděli jsme, jak jejich člun krouží v jejich blízkosti a napadlo nás to nejhorší,“ řekl kormidelník záchranného člunu Moelfre Vince Jones.
„Silný vítr jej naštěstí odvál pryč od nich ještě než jsme vyjeli,“ dodal.
Dva muže zachránila místní rybářská loď, třetí muž ve věku 60 let byl nalezen bez záchranné vesty vyčerpaný, jak se drží bójky.
Všichni byli předáni na palubu pobřežního záchranného člunu a převezemi zpět na stanici záchranných člunů
Jones řekl: „Tři muži svržení do vody jsou šťastní, že jsou naživu a zcela bez zranění.
Motor lodi měl lano pro nouzové vypnutí, ale nějak došlo k jeho odpojení od osoby, která člun řídila, když došlo k převrácení.
Někdo shora nad těmi hochy držel ochrannou ruku.
Soudkyně odmítá řešit případ kvůli Tluchořově ženě.
Petr Tluchoř je jedním ze tří poslanců, kteří měli podle obžaloby dostat od premiéra Nečase a jeho tehdejší šéfky kabinetu Jany Nagyové politickou trafiku, tedy lukrativní post za politický ústupek.
V roce 2012 šlo o schválení daňového balíčku.
Šnajdr, Fuksa a Tluchoř ho umožnili svými rezignacemi.
Pak se objevili na vlivných postech ve státních firmách.
I proto čelili také podezření z úplatku a skončili na měsíc ve vazbě.
Podle soudu ale neoprávněně, a dočkali se tak odškodnění celkem téměř 2 milionů korun.
Tluchoř nyní v kauze vystupuje jako svědek, a to po zásahu Nejvyššího soudu.
Jeho manželka pracuje v soudní budově na Ovocném trhu a řeší civilní spory.
Přesto chce být soudkyně Helena Králová opatrná (řeší trestněprávní záležitosti - pozn. red.) a předejít možným námitkám.
Případ tak zřejmě dostane na starost jiný pražský soudní obvod.
Králová přitom už dvakrát zprostila viny Janu Nečasovou, dříve Nagyovou.
Šlo o údajné zneužití vojenské rozvědky ke sledování první manželky premiéra Nečase Radky.
V tomto případu Tluchoř nefiguroval.
Podle právníka Jaroslava Ortmana jde ale o zbytečně přehnanou reakci.
Myslím si, že nestrannost nemůže být takto vykládána, aby se soud vylučoval, jestliže svědkové mají manželku nebo příbuzné na soudu.
Obávám se, že by se pak nedalo soudit vůbec nic, poznamenal pro deník.
"Připadá mi to ulítlé," dodal.
V případu politických trafik je obviněn také Roman Boček, bývalý úředník.
Podle jeho advokáta Petra Tomana by ale případná námitka měla šanci na úspěch.
Obvodní soud pro Prahu 1 projednával 13. června obžalobu někdejší šéfky kabinetu premiéra Petra Nečase Jany Nagyové (dnes Nečasové) a dalších obviněných v kauze zneužití Vojenského zpravodajství.
Na snímku přichází Nečasová s manželem k soudu.
Tluchořová měla řešit výroky o Peroutkovi.
Manželka exposlance měla například soudit výroky prezidenta Miloše Zemana o demokratickém předválečném novináři Ferdinandu Peroutkovi.
Zeman o něm prohlásil, že sympatizoval s Adolfem Hitlerem.
Jedna ze školaček už je mrtvá!
Dívka zřejmě zahynula při leteckém náletu spojeneckých sil.
Do Sýrie spolu se svými dvěma stejně starými přítelkyněmi odletěla loni v únoru z londýnského letiště Gatwick.
Britské ministerstvo vnitra zprávu o její smrti nekomentovalo.
Mladé Londýňanky, které utekly z domova, byly podle policie tajně převezeny do Sýrie přes tureckou hranici.
Shamima Begumová, Amira Abaseová a Kadiza Sultanaová zamířily podle médií za svou další bývalou spolužačkou z londýnské školy Bethnal Green Academy.
Případ loni vyvolal obrovskou vlnu pozornosti a také napětí ve vztazích mezi Británií a Tureckem.
Britské bezpečnostní složky odhadují, že do Sýrie dosud odcestovalo asi 600 britských muslimů, z toho asi 50 mladých žen a dívek.
Řada z nich se připojila k radikálům z IS a dalších skupin.
Ti, kteří se vrátí domů, představují pro Británii teroristickou hrozbu.
Práce snů za stotisícový plat.
Skvěle placená práce, ke které ani nepotřebujete vysokou školu.
Tak vypadá na první pohled práce ajťáka.
A často i na ten druhý.
Výhodou totiž není jen na české poměry extrémně vysoký plat (v Praze si prací v IT vyděláte až 180 000 Kč), ale i extrémní výhody.
Důvodem je obrovský nedostatek IT specialistů.
Chybí tisíce specialistů.
Podle odhadů chybí v Česku téměř 20 000 IT specialistů.
Mezi nejhledanější patří podle statistik personální agentury Grafton programátoři, vývojáři, network inženýři a aplikační specialisté.
Kandidáti si mohou vybírat mezi několika nabídkami práce.
Nesoupeří tedy kandidáti o pracovní pozici, ale pracovní pozice o kandidáty, komentuje Jitka Součková, marketingová manažerka Grafton Recruitment.
Vysoká škola není nutností.
Vysokoškolské vzdělání přitom není pro ajťáky nutností.
Vysokoškolské vzdělání znamená dobrý základ a je celkovým ukazatelem inteligence a vzdělatelnosti kandidáta, ale nemá často moc společného se znalostí vývoje.
Vývojáři se musejí neustále učit nové věci, což jednou vystudovaná vysoká škola nenahradí, říká Petr Kubačka, ředitel Monster Career CZ.
Nejvíc se vydělá v Praze.
Mzdy ajťáků se všude pohybují vysoko nad republikovým průměrem.
Na nejvíce peněz si přijdou v Praze a Brně, v regionech to už taková hitparáda není.
"Mzdové podmínky v Brně jsou srovnatelné s těmi pražskými," potvrzuje Kubačka.
Na nejvyšší výdělek dosáhnou techničtí ředitelé.
V Praze a Brně si mohou přijít na 120 000 - 180 000 Kč.
V ostatních regionech je plat nižší, ale ani tam neklesne pod 80 000 Kč.
Poptávaní jsou také IT projektoví manažeři.
Při nástupu si mohou vydělat 60 000 - 100 000 Kč.
Boj je i o absolventy.
Zatímco v některých profesích musí absolventi často rovnou vyrazit na úřad práce, u ajťáků to neplatí.
Pokud se totiž firmám přetáhnout a přeplatit odborníka z jiné společnosti, rádi sáhnou po absolventovi.
Můžou si ho totiž vychovat podle svého.
Bez jazyka se neobejdou.
Znalost cizího jazyka se hodí v každé profesí, u ajťáků je ale nezbytná minimálně slušná angličtina.
Znalost alespoň jednoho cizího jazyka je u některých IT pozic nutností.
Na druhou stranu se setkáváme s množstvím případů, kdy firmy hledají zejména odborně vzdělaného a zkušeného člověka a spokojí se pouze s průměrnou znalostí angličtiny.
Pokud však například pracovník podpory ovládá více cizích řečí, je pro svého zaměstnavatele zajímavý, protože dokáže obsloužit více zákazníků z různých zemí, dodává ředitel Kubačka.
Jóóó v Googlu, tam je ráj.
Jen tiše závidět můžou čeští pracanti zaměstnancům v Googlu.
Samozřejmostí je pro ně pružná pracovní doba, možnost práce z domova či různé zkrácené úvazky, nejen pro maminky.
"Novopečeným tatínkům poskytuje společnost čtyři týdny dovolené navíc po narození dítěte," říká Martina Joneková, mluvčí Google.
Hýčkání obnáší i zdravotní péči pro zaměstnance a rodinu, stravování, dopravu, školení, wellness či masáže přímo na pracovišti.
Kdo se chce vzdělávat, má zelenou a nezáleží na tom, co nového se chce učit.
Tím ale výhody nekončí.
Taková plná lednička zdarma také rozhodně není k zahození.
Zdravý oběd (v některých lokalitách i snídaně a večeře) je k dispozici na místě každý den.
Navíc jsou ve všech kancelářích takzvané mikrokuchyňky, kde lidé vždy najdou zdravou svačinu, prozrazuje mluvčí.
A aby se nic nemuselo vyhodit, tak co se nesní, dá do krabiček, které si zaměstnanci mohou vzít večer domů.
A důvod těchto na české poměry neuvěřitelných výhod?
Vytvořit kreativní a motivující prostředí!
"Pro Google totiž není důležité, aby zaměstnanci seděli v kanceláři osm hodin denně, ale výsledky iniciativ nebo projektů, posun či vývoj, nápady a inovativní řešení," dodává mluvčí.
OSN ostře zkritizovala Bulharsko za kriminalizaci uprchlíků.
Zeid Ra'ad al-Hussein, komisař OSN pro lidská práva, obvinil ve čtvrtek Bulharsko, že systematicky porušuje lidská práva kriminalizací uprchlíků.
Oficiální strategie bulharské vlády "vyvolává vážné znepokojení ohledně toho, že Bulharsko nedodržuje mezinárodní právo", varoval Zeid Ra'ad al-Hussein v prohlášení.
Upozornil, že "je zvlášť znepokojující být svědkem toho, jak důležité a vlivné veřejné osobnosti vyjadřují veřejně podporu pro kriminální ozbrojené bojůvky, které drze pořádají hony na uprchlíky na hranici mezi Bulharskem a Tureckem".
"Jedním z nejvážnějších problémů je, že téměř všichni lidí, kteří přejdou na bulharské území nepravidelným způsobem jsou automaticky zatýkáni," zdůraznil Zeid.
A co je ještě horší - často jsou trestně stíháni a vězněni - na rok či déle - pokud se pokusí ze země odejít.
Jejich pokusy odejít ze země jsou kriminalizovány navzdory tomu, že každý má podle mezinárodního práva právo odejít z jakékoliv země, včetně své vlastní.
Bulharsko letos zadrželo 14 000 migrantů, loni za totéž období 21 000.
Pokémon Go - honba za zdravím a štěstím, která se vyplatí
Je fascinující sledovat, jak se svět mění.
Řada lidí během posledního desetiletí lamentuje, že teenageři a děti si již nehrají venku a dávají přednost trávení volného času před obrazovkami.
Pokémon Go zvedá lidi z pohovek a vede je k aktivitě.
Čas strávený před obrazovkami se původně smrskl na televizi, později na video hry a nejnověji na chytré telefony.
Je skvělé sledovat, že technologie a aktivity venku se nevzájem nevylučují.
Mluvím samozřejmě o módě, kterou je Pokémon Go, aplikace založená na postavičkách, které se poprvé objevily ve video hrách na konci 90. let (později vznikl kreslený seriál, hrací karty a další).
Stejně jako u mnoha kulturních fenoménů, i zde došlo před uvedením této nové hry na začátku července v USA, Austrálii a na Novém Zélandu k poklesu zájmu.
Uvedení v dalších zemích pak bylo odloženo kvůli mohutnému zájmu, který vedl k přetížení serverů.
Pokémon Go získal během několika dnů víc uživatelů než Tinder a téměř tolik uživatelů, jako má Twitter.
Jak to funguje?
V krátkosti, hráči na chytrém telefonu jdou ven hledat Pokémony, které sledují pomocí GPS, a když je najdou, mohou je „vyfotit“ (přes screenshot na telefonu) nebo „chytit“.
Mánie zachvátila generaci, která v mladším věku hru hrála, zvedá ji ze sedaček a žene ven hledat Pokémony.
V USA díky této hře došlo k výraznému nárůstu počtu kroků, které „průměrný“ člověk každý den udělá.
Aplikace Cardiogram pro chytré hodinky od Applu, která sleduje 35 000 uživatelů, nedávno pro Washington Post sdělila, že během dvou dnů od spuštění hry se počet sledovaných lidí, kteří každý den cvičili po dobu 30 minut, poskočil ze 45 na 53 procent.
Společnost nemá informace o tom, kdo Pokémon Go hraje - vidí pouze hrubá data o úrovních cvičení.
Mnoho veřejných kampaní usilujících o to, aby lidé „našli 30“, „zvedli se z gauče“ a „byli aktivní každý den“ padlo na neúrodnou půdu, protože většina poselství zaměřených na veřejné zdraví je nudná a určená lidem, kteří nevypadají dobře.
Přesto důležitost cvičení nesmí být podceňována.
Ti, kdo cvičí pravidelně, snižují riziko onemocnění rakovinou nebo depresemi.
Fyzická aktivita se podílí na kontrole hmotnosti, vysokého krevního tlaku, cukrovky a dlouhém seznamu přínosů, který zde nemůžeme celý uvádět.
Ale krása hry Pokémon Go spočívá v tom, že lidé chodí ven a dělají něco, co je baví.
Pokrýváte tak tři pilíře zdraví - pohyb, čerstvý vzduch a sluneční paprsky. A zábavu.
Někteří lidé si dokonce při honbě za pokémony získají nové přátele.
Jak už tomu bývá, najdou se samozřejmě i tací nudní patroni, kteří hledají jakoukoliv záminku k tomu, aby si mohli stěžovat.
A ano, někdo může vejít do dveří.
A co, jako?
Nastal průlom.
Ve své době aplikace pro chytré telefony, jako třeba Fitbit, uměly sledovat naší aktivitu, ale nedávaly nám důvod k tomu, abychom něco dělali, jako je tomu u téhle hry.
Novinka se okouká a zájem o ni začne v určitém okamžiku opadat.
Ovšem díky úspěchu Pokémonů se objeví další hry, které budou kombinovat aplikace a virtuální realitu s aktivitou ve skutečném světě a pomohou řadě lidí při honbě za aktivitou, zdravím a lepší formou.
Přečtěte si blog doktora Joea na www.drjoetoday.com
Simone Bilesová získala zlato ve víceboji gymnastiky žen
Zapomeň na tlak.
Zapomeň na vzrušení.
Simone Bilesová je vůči tomu všemu imunní.
Dynamická na přeskoku.
Bez námahy na kladině.
Při prostných všichni oněměli.
Vynikající ve všem.
A nyní konečně olympijskou šampionkou.
Devatenáctiletá americká gymnastka šla ve čtvrtek přímou cestou za titulem ve víceboji a ostatní na plné čáře pod olympijskými reflektory překonala.
Celkový výsledek 62,198 jasně potvrdil její náskok před stříbrnou medailistkou a členkou týmu „finálové pětky“ Aly Raismanovou a ruskou bronzovou medailistkou Aliyou Mustafinovou.
Simone Bilesová (USA) ve čtvrtek během vystoupení na kladině ve finále víceboje jednotlivců ve sportovní gymnastice na letních olympijských hrách 2016 v brazilském Riu de Janeiru.
Bilesová se stala čtvrtou Američankou v řadě, která vyhrála víceboj, a pátou celkově, když potvrdila svou pověst nejlepší gymnastky své generace a možná i nejlepší vůbec.
Když bylo její celkové finálové hodnocení na tabuli a její dlouhá cesta až do tohoto okamžiku skončila, objevily se jí na tváři slzy.
Tento úspěch ji řadí do stejné ligy ojedinělých atletů své doby, jako je Michael Phelps, kteří svému sportu dodali nový rozměr:
Bilesová svému sportu poslední tři roky dominuje, vyhrála 15 medailí na světových šampionátech - včetně 10 zlatých. Její úchvatné sestavy jsou směsicí ambicí a přesnosti a olympijská šampionka z roku 1984 Mary Lou Rettonová ji označila za „nejlepší gymnastku, jakou kdy viděla.“
Poslední zkouška ji čekala v Brazílii, ani ne tak mezi Bilesovou a zbytkem závodnic, ale mezi ní samotnou a břemenem příliš velkých očekávání.
Cokoliv jiného, než návrat domů ke své rodině ve Spring v Texasu s rukou plnou zlatých medailí, by bylo vnímáno jako zklamání.
Simone Bilesová (USA), vlevo, a Aly Raismanová se objímají po vítězství zlaté a stříbrné medaile ve finále ženského víceboje jednotlivkyň na letních olympijských hrách 2016 v brazilském Riu de Janeiru ve čtvrtek.
První Bilesová získala úterý, kdy byla jako vykřičník v oslavě odcházející národní týmové koordinátorky Marthy Karolyiové.
Bilesová trvá na tom, že se během své dlouhé cesty na vrchol nikdy nedívala kupředu, což ale není tak úplně pravda.
Část její sestavy v prostných - ta, která obsahuje pro ni typické trojité salto s dvojitým obratem - je zasazena do latinské hudby, která by se právě hodila domů, do ulic mimo olympijskou arény v Riu.
To není náhoda.
Dívku adoptovali její prarodiče jako batole a její talent objevila matka trenérky Aimee Boormanové cestou do tělocvičny, kde Boormanová trénovala a kde získal na síle.
Soutěž ve víceboji neprohrála od léta 2013 - to je sled vítězství, který může pokračovat tak dlouho, jak Bilesová bude chtít.
I když Mustafinová převzala na krátko vedení díky dvěma otočkám, byla to jenom iluze.
Kladina a prostné - kde Bilesová obhajuje světový šampionát - čekají.
Dostala se zpět do čela s 15,433 body za kladinu - a završila s 15,933 body v prostných.
Raismanová ji jemně objala, když čekaly na finálové skóre - pouhou formalitu - a okolo třpytivě červených, bílých a modrých stínů se Bilesové objevily slzy, když se splnilo přání, které si kdysi jako malá zapsala do deníčku.
Výkon Raismanové byl tak trochu odplatou za olympiádu před čtyřmi roky, kdy se dělila o třetí příčku s Mustafinovou, tehdy jí ale bronz kvůli součtu tří nejlepších sestav.
Tentokrát dvaadvacetiletá kapitánka týmu, které Američané říkají „babča“, byla o dost vpředu.
Po svých prostných posílala davu vzdušné polibky, zdolána návratem, který se občas zdál nejistý.
Pro Bilesovou má příspěvek, který tahle devatenáctiletá atletka tento týden umístila na Twitter, kde se stal naprostým hitem, zcela nový význam:
Policie: Tři oběti v případu sériového vraha zastřeleny při poslechu hudby v autě
Podle policejní zprávy uveřejněné ve čtvrtek zemřely dvě ženy a dívka ve věku 12 let během nejvažnějšího útoku desetiletí, v případu prvního sériového vraha ve Phoenixu. Byly zastřeleny, když seděly v autě, povídaly si a poslouchaly hudbu.
Úřady oznámily, že Angela Rochelle Linerová, Stefanie R. Ellisová a dcera Ellisové Maleah byly zastřeleny 12. června v autě zaparkovaném na příjezdové cestě.
Ve zprávě se uvádí, že ozbrojený muž stál na straně spolujezdce a z ruční zbraně vypálil osm ran. Poté uprchl v jiném vozidle.
Podle policie nestojí za trojnásobnou vraždou loupež, protože útočník nevzal peněženky, ani částku 2 900 dolarů, kterou u sebe měla jedna z dospělých obětí.
Mluvčí policie ve Phoenixu, seržant Jonathan Howard řekl, že vyšetřovatelé zjišťují, zda střelba neměla nějakou spojitost s některým z předchozích čtyř útoků.
Ve dvou převážně hispánských čtvrtích došlo během čtyř měsíců celkem k devíti útokům, při kterých bylo zabito sedm lidí a dvě další osoby byly zraněny.
„Děje se to ve vilové čtvrti před domy“, uvedl Howard dříve tento měsíc pro pobočku KPHO stanice CBS.
Policie se domnívá, že podezřelý používal několik aut, včetně hnědého Nissanu z konce 90. let, černého BMW z konce 90. let a bílého Cadillacu nebo Lincolnu.
Vyšetřovatelé odmítli prozradit, jaké důkazy je vedly k závěru, že útoky spolu souvisejí a byly provedeny stejným vrahem.
Ellisová (33) byla převezena do nemocnice, kde později svým zraněním podlehla.
Linerová (31) a dcera Ellisové Maleah zemřely na místě.
Svědek policii sdělil, že nebylo neobvyklé, že ženy sedávaly v zaparkovaném autě a poslouchaly hudbu.
Úřady také uveřejnily policejní zprávu o střelbě, jejímž terčem se stala prázdná dodávka pouhou půl hodinu před trojnásobnou vraždou. Policie se domnívá, že jejím původcem byl tento sériový vrah.
Vyšetřovatelé nalezli nábojnice a ze zbytků kulek v sedadle a z pod kapoty motoru sestavili kulku.
Matka šestiletého dítěte s mikrocefalií: „Jeho stav se zlepšuje“
Edmund Picciuto, stejně jako většina dětí jeho věku, miluje zpěv, hračky a samozřejmě také svou maminku.
Ale na rozdíl od svých vrstevníků trpí mikrocefalií, která je důsledkem genetické poruchy, o které jeho matka, Elizabeth Picciutová, během těhotenství nevěděla.
Když poprvé přišel domů, jako první mě napadlo, že tohle nezvládnu.
Tohle nezvládnu.
Na tohle nejsem připravená.
Což vůbec není pravda - jasně, že na to připravení jste,“ řekla.
Ona a její manžel Vincent se dozvěděli, že Edmund je možná nikdy nepozná a že možná ani nepřežije.
Někteří lékaři dokonce navrhovali, aby byl umístěn do ústavu.
„Moje první reakce byla, že jsem si myslela, že tohle už dneska lidé nedělají“, vysvětluje Picciutová.
Edmund chodí s pomocí chodítka.
Až do věku tří let neuměl sedět, ani se plazit. A stále ještě nemluví.
Některé mezníky již ale pomalu naplňuje.
Chodí s dopomocí a jezdí na kole.
Také si moc rád hraje se svými dvěma bratry a miluje zpěv.
Elizabeth předvádí znakovou řeč, pomocí které Edmund říká „prosím, zpívej mi“.
„Učíme ho znakovou řeč“, řekla Picciutová pro CBS News.
Ale není to běžná znaková řeč - říká, že si Edmund některé znaky vymyslel sám.
Mikrocefalie může vzniknout z řady různých stavů: genetických, jako je tomu v případě Edmunda, a po infekcích v těhotenství způsobených viry, jako jsou spalničky nebo Zika.
Symptomy a prognóza se mohou podstatným způsobem lišit.
Je příliš brzy na to, abychom mohli říci, jaký dopad bude mít virus Zika na životy nakažených.
Picciutová připomíná citovou daň, kterou si vybírá nejistá budoucnost.
Neustále se ptám: „Co bude dál?“
Co bude dál?
A stále si tím není jistá.
Ve skutečnosti jsem se nikdy neptala, jaká je celková prognóza, protože nečekám, že by mi to někdo vůbec dokázal říct.
Picciutová má ale povzbudivou zprávu pro matky všech dětí, které trpí vrozenými vadami způsobenými virem Zika.
Situace se zlepšuje.
Vězte, že to bude lepší.
Budete své dítě milovat a vaše dítě bude milovat vás.
Silné deště a záplavy si vyžádaly záchranné práce v Louisianě, Mississippi
Silný déšť a rozsáhlé záplavy v Louisianě přiměly v pátek guvernéra vyhlásit nouzový stav. Ve státě jsou v sobotu očekávány další deště.
Národní meteorologická služba (NWS) ohlásila, že po extrémních lijácích se řada řek na jihovýchodě Louisiany a v jižním Mississippi vylije ze svých břehů a hrozí rozsáhlé záplavy.
Guvernér Louisiany John Bel Edwards řekl, že státní úředníci jsou nepřetržitě v kontaktu s místními úřady a pomoc je již na cestě do postižených oblastí.
Mike Steele, mluvčí kanceláře guvernéra pro národní bezpečnost a připravenost na krizové situace řekl, že dostávají žádosti o vozidla pro jízdu ve vodě, čluny a pytle s pískem.
Steele řekl, že jen okrsek Tangipahoa požádal o deset tisíc pytlů s pískem.
Povodňové hlídky zůstanou ve většině jižní Louisiany pracovat do soboty.
Meteorologická služba v prohlášení uvedla, že nad mořem může napršet ještě dalších asi 8 až 13 centimertů.
V jižní Alabamě byla povodňová hlídka v pohotovosti v pátek, kdy deště pokračovaly v oblasti města Mobile.
Podle předpovědi mají řeky Comite u Baton Rouge a Amite u Denham Springs o víkendu kulminovat.
Meteorolog Alek Krautmann řekl, že obě řekly mohou zaplavit řadu domů v příměstkých oblastech Baton Rouge.
Uvedl dále, že nebezpečím jsou záplavy po proudu v okrsku Ascension, kdy se tyto rozvodněné toky budou do jezera Maurepas odlévat jen pomalu.
Řeka Tickfaw, o něco jižněji od hranice státu Mississippi v Liverpoolu ve státě Louisiana, dosáhla již v pátek v 9 hodin ráno místního času na nejvyšší zaznamenané úrovně.
Záchranáři stále vyzvedávají lidi z přívalových vod v hrabstvím Amite a Wilkinson na jihozápadě Mississippi.
Leroy Hansford, jeho manželka a nevlastní syn byli již dříve v pátek mezi záchráněnými u Glosteru.
Hansford (62) řekl, že voda z Beaver Creeku, které jsou normálně více než 120 metrů od jeho domu, přes noc rychle stoupla.
Řekl, že ho upozornil jeho další nevlastní syn, který žije nedaleko.
„Vzbudili jsme se a voda se blížila,“ řekl Hansford.
Měl jsme ji až do pasu.
Podle jeho manželky je to nejvyšší hladina, kterou kdy na říčce za posledních 48 let zažila.
Hansford řekl, že on a všichni členové jeho rodiny jsou postižení a on je jediný, kdo umí plavat.
Hansford uvedl, že krizoví pracovníci zachránili všechy tři obrovské nákladní vozy ve vojenském stylu a převezli je na hasičskou stanici v Glosteru, kde v pátek zůstaly zakryté.
Krautmann řekl, že s pokračováním vydatných dešťů se záplavy „rychle šíří“ a úřady zvažují evakuaci.
Podle Krautmanna pozorovatel nedaleko Livinstonu oznámil, že od půlnoci do pátku do rána spadlo 35 centimetrů dešťových srážek.
Krautmann řekl, že půda je od středy silně nasáklá.
Úřady uvedly, že vydatný déšť a zaplacené cesty si vyžádaly záchranu obyvatel z jejich domovů v okrese Tangipahoa a zrušení výuky v pěti školních okrscích.
Pobočka WWL stanice CBS oznámila, že podle stařešiny z Tangipahoa bylo zaplaveno 200 domovů.
Obyvatelé byli evakuováni do dvou kostelů, které jsou oba ale nyní zaplaveny.
Starosta obce Robby Miller uvedl, že úřady zachránily 72 lidí a sedm domácích zvířat, které vysoká voda uvěznila.
V obci Amite a ve městě Hammond byly zřízeny přístřešky pro ty, kteří byli evakuováni.
„Budou se moci vrátit domů, až voda začne opadávat,“ řekl.
V okrsku Tangipahoa ve městě Hammond bylo kvůli povodni uzavřeno více než 20 ulic a místní obyvatelé dostali k dispozici pytle s pískem, které si mohli vyzvednout a pokusit se ochránit své domovy a podniky před vodou.
„Poslední velké záplavy jsme tu měli v březnu,“ řekl správce městla Lacy Landrum.
Zdá se, že tyhle záplavy budou podobné.
Rupert Lacy, manažer pro krizové situace v hrabství Harrison ve státě Mississippi uvedl, že na pobřeží Perského zálivu pokračuje vytrvalý déšť.
Řekl, že ve čtvrtek bylo oznámeno zatopení pár domů, ale v pátek se žádné z nich už v hlášení neobjevily.
Keith Townsonová, vedoucí Shopper Value Foods v Amite, žije v oblasti již 40 let.
„Viděla jsem vodu na několika místech, kde jsem ji nikdy předtím neviděla,“ řekla Townsonová, „a je tam stále.“
Mahaj Brown (6) - „chlapec rozstřílený jak řešeto“, přežil střelbu ve Filadelfii
Podle policie byl ve Filadelfii postřelen šestiletý hoch. Tento týden se jedná již o druhou střelbu na dítě ve věku 6 let ve městě.
Prarodiče dítěte jej pro CBS Philadelphia identifikovali jako Mahaje Browna.
Prarodiče říkají, že chlapec utrpěl několik střelných zranění, včetně slabin, nohy, paže a břicha, ale při přepravě do nemocnice byl při vědomí.
„Schytal toho hrozně moc, jeho malé tělo bylo prostřílené jak řešeto,“ řekla stanici jeho babička, Delores Melendezová.
Nemohu tomu uvěřit.
Chlapec je v kritickém stavu v nemocnici a podstoupil několik operací.
Rodina pro stanici uvedla, že by se chlapec měl uzdravit.
Měl nastoupit do první třídy základní školy.
Mahaj Brown je mezi čtyřmi lidmi, kteří byli postřeleni v části Germantown.
Postřeleni byli ještě další tři muži: dva ve věku 29 let a jeden ve věku 32 let.
Jeden z mužů ve věku 29 let je v kritickém stavu, podle CBS Philadelphia jsou další dvě oběti ve stabilizovaném stavu.
Podle hlášení stanice bylo dítě nalezeno postřelené na předním sedadle vozidla spolu s devětadvacetiletým mužem v kritickém stavu.
Další dvě oběti nebyly ve voze a policie zkoumá, zda by některý ze zraněných mužů mohl být střelcem.
Vyšetřovatelé stanici CBS Philadelphia uvedli, že pravděpodobně došlo k přestřelce mezi několika ozbrojenými muži.
Na místě byly nalezeny nábojnice ze zbraní útočného typu, patřící různým útočným zbraním.
Podle všeho šlo zcela určitě o pokračující bitvu.
Na ulici byly nábojnice po obou stranách chodníku.
Zdá se tedy, že zde bylo několik ozbrojených bojujících osob, které byly aktivně zapojeny,“ uvedl pro stanici kapitán filadelfské policie Anthony Ginaldi.
Zasaženo bylo také několik domů a vozidel v oblasti.
Nikdo nebyl zadržen a policie údajně prozkoumává videonahrávky z kamer.
Další šestileté dítě, tentokrát dívka, byla postřelena do paže zbloudilou střelou v úterý před domem v sousedství West Oak Lane.
Dívka se zotavuje a policie stále hledá podezřelého.
Proč potřebujeme Simone, Gabby a Laurie
Právě takhle si představuji ženský tým gymnastek pro letošní olympijské hry, a to hned z několika důvodů.
Za prvé, byl jsem na každé letní olympiádě od roku 1984 a USA nebyly nikdy tak dominantní.
A za druhé: V tomhle týmu jsou tři gymnastky, Simone Bilesová, Gabby Douglasová a Lauren „Laurie“ Hernandezová, které inspirovaly tolik mladých barevných dívek.
Každý je hrdý na složení tohoto týmu, které doplňuje Aly Raismanová, která je židovského původu, a katolička Madison Kocianová.
Konečně máme tým, který vypadá jako Amerika.
Také upevnil přítomnost černošek a latinskoameričanek na špičce tohoto sportu.
Gymnastkou číslo jedna v uplynulých čtyřech letech byla afroameričanka.
Simone a Gabby byly loni na první a druhé příčce.
To něco znamená.
Na poslední olympiádě se Gabby Dougalsová překvapivě stala šampionkou olympijských her a Amerika jásala.
Nyní svět mohl být svědkem neuvěřitelného výkonu trojnásobné světové vítězky Simone Bilesové, Douglasové a Laurie Hernandezové, které předvedly neočekávané, ale mistrné gymnastické figury.
Ve čtvrtek se Simone stala čtvrtou Američankou, která získala zlato v ženském víceboji jednotlivců.
A členka týmu Aly Raismanová získala stříbro.
Jsme svědky sportovního vrcholu, ale v hodinách gymnastiky v zemi to tak nevypadá.
Simone, Gabby a Laurie absolvovaly do olympijského týmu stejnou cestu jako Aly a Madison.
Jsou „finálovou pětkou“, protože tým gymnastek na příští olympijské hry bude složen pouze ze čtyř atletek, a toto je poslední rok, kdy Marta Karolyiová trénuje.
Skutečnost je ale taková, že gymnastika je finančně náročný sport a gymnastky trénují převážně v soukromých gymnastických klubech, které udržují rodiče, kteří platí náklady na tréninky, vybavení, cesty, dresy, poplatky za soutěže, hotelové ubytování (pro trenéry a jejich svěřence a rodiny). A to zdaleka není vše.
Většina těchto sportovních klubů je v bohatých oblastech na předměstí, které mohou aktivity podporovat.
V těchto klubech mají gymnasté veškeré tréninky a pro rodiny gymnastek a gymnastů se jedná o nákladný a dlouhodobý závazek.
Aimee Boormanová, trenérka Simone Bilesové, a Maggie Haneyová, trenérka Laurie Hernandezové, obě trénovaly atlety v době, kdy začaly v gymnastice.
Je naší povinností přinést tréninky gymnastiky, které jsou více dostupné a přístupné komunitách bezpočtu mladých dívek, které Simone, Gabby a Laurie inspirovaly.
Nadaci pro gymnastiku jsem založila před 20 lety.
V mých organizacích, kde nabízíme gymnastiku zdarma nebo s nízkými náklady v Harlemu pro více než 15 000 mladých lidí v rámci města (především černošského a hispánského původu) a trénovali jsme národní i mezinárodní šampiony.
V září budeme expandovat do Detroitu (mého rodného města), kde budeme poskytovat kvalitní gymnastiku mladým lidem, kteří si zaslouží možnost učit se a těžit z tohoto skvělého olympijského sportu.
Gymnastika rozvíjí sílu, pružnost a koordinaci těla a tvrdou práci, disciplínu a odhodlání mysli.
Tato kombinace znamená doživotní přínosy pro dobré zdraví, úspěchy ve škole a v práci.
Právě inspirace tímto týmem k nám bude posílat tisíce mladých dívek, které budou chtít dělat gymnastiku. A to je skvělé.
Účast na tomto sportu je velmi důležitá, především pro dívky.
Je to velmi vzrušující doba.
Děkuji vám, Simone, Aly, Laurie, Gabby a Madison, za to, že jste prokázaly „dívčí sílu“ a vyhrály jste olympijské týmové zlato. A děkuji vám za to, že motivujete tolik mladých dívek všech původů, aby se vydaly na cestu stát se zdravými, silnými a úspěšnými mladými ženami.
Po zamítnutí návrhu Jeremyho Hunta jsou mladí lékaři připraveni vstoupit do dalších stávek
Ministři doufali, že po uzavření přepracované smlouvy se zástupci Britské lékařské asociace (BMA) dojde k ukončení neshod ohledně změn. Ale 58 procent z 37 000 mladých lékařů, kteří se voleb zúčastnili, smlouvu odmítlo.
Hunt v červenci odhalil plány na vynucení smlouvy s tím, že NHS byla v „zemi nikoho“ a další zpoždění by mělo škodlivý dopad na zaměstnance a pacienty.
První mladí lékaři již podepsali novou smlouvu, která zahrnuje změny v nočních a víkendových pracovních postupech s cílem zlepšení péče v nesociálních hodinách.
Lékařka Ellen McCourtová, předsedkyně komise BMA pro mladé lékaře v prohlášení minulou noc uvedla: „Mladí lékaři stále mají vážné obavy týkající se navrhované smlouvy, především v tom smyslu, že dojde k nárůstu současné krize pracovních sil a tedy k férovému zacházení se všemi lékaři.“
Pouhých osm týdnů předtím, než první skupina lékařů přejde pod novou smlouvu, je nutné dosáhnout pokroku a dochází čas.
Úsilí BMA o vyřešení sporů prostřednictvím vyjednávání se setkaly s neochotou zapojit dr a často s ohlušujícím tichem ze strany vlády.
A to navzdory slibu Jeremyho Hunta z minulého měsíce, že tato možnost je stále otevřená.
„Jeremy Hunt nyní musí jednat, zatlačit na vynucení a vyřešit obavy mladých lékařů.“
Pokud k tomu nedojde, pak jsou mladí lékaři připraveni provést další kroky.
Během poslední stávky na konci dubna došlo k odložení téměř 13 000 rutinních operací a 100 000 návštěv, protože sestry a specialisté byli povoláni, aby zastoupili lékaře, kteří byli mezi protestujícími.
Ministři doufali, že po uzavření přepracované smlouvy se zástupci Britské lékařské asociace (BMA) dojde k uzavření neshod týkajících ohledně změn.
BMA chce vyšší platby za práci o víkend pro 54 000 mladých lékařů, kteří by byli předmětem smlouvy.
Daniel Mortimer, předseda zaměstnavatelů NHS, vyzval mladé lékaře, aby do žádné stávky nevstupovali.
Mortimer řekl: „Oborovou akcí se dosáhne jenom málo nebo vůbec nic, ale vznikne tlak na již tak přetížené týmy a služby a vzrostou obavy, vyčerpání a narušení pro pacienty, ošetřující personál a jejich rodiny.“
V uplynulých dvou měsících jsme jednali s radou mladých lékařů a spolu s ministerstvem zdravotnictví a ostatními jsme pozitivně reagovali na jich obavy ohledně role dohledu a informátora.
Zaměstnavatelé doufali, že pokračující pozitivní zapojení v dalších důležitých otázkách - jako je vytížení, flexibilita při školeních, další školení pro ty, kteří se vracejí po přerušení kariéry, náklady na školení, vzájemné uznávání předmětů, studijní volno a rozdíl v platech mezi pohlavími - bylo důkazem toho, jak vážně zaměstnavatelé, Health Education England a ministerstvo zdravotnictví berou dohody, které byly s BMA dosaženy v listopadu, únoru a květnu.
Lék za šedesát korun na den dokáže snížit nebezpečí infarktu
Tisíce pacientů ohrožených infarktem budou moci užívat lék, který v přepočtu stojí okolo šedesáti korun (dvě libry). Úřady doporučují podávat jej více pacientům po delší dobu.
Lék proti srážení krve Ticagrelor snižuje u lidí s onemocněním srdce nebezpečí, že k záchvatu dojde znovu.
Lék se nyní po prodělání infarktu podává po dobu 12 měsíců, aby se snížilo nebezpečí mrtvice nebo jiného záchvatu.
NHS watchdog NICE doporučuje, aby byl lék lidem podáván po dobu čtyř let, aby se dále snížilo nebezpečí kardiovaskulárních problémů.
Nyní ale NHS watchdog NICE doporučuje, aby byl podáván lidem po dobu čtyř let, aby se dále snížilo nebezpečí kardiovaskulárních problémů.
V Anglii infarktem utrpí každý rok asi 140 000 lidí a čtvrtinu z nich postihne ještě další záchvat nebo srdeční mrtvice.
Infarkt a mrtvice jsou způsobovány nahromaděním tuku, který na stěnách arterií vytváří souvislou vrstvu.
Pokud dojde k odtržení této vrstvy, může dojít ke vzniku krevní sraženiny, zablokování přístupu krve do srdce a vzniku srdečního infarktu.
Pokud se sraženina uvolní, může krevním řečištěm pokračovat dál, zablokovat přívod krve do mozku a způsobit mozkovou mrtvici.
Lidé, kteří již infarkt prodělali, jsou vystaveni vyššímu riziku dalšího záchvatu.
Ticagrelor, který vyrábí britská firma AstraZeneca a který je prodáván pod obchodním názvem Brilique, snižuje riziko tím, že ke vzniku sraženin dochází méně pravděpodobněji.
V návrhu směrnice NICE, který byl dnes uveřejněn, se doporučuje, aby pacienti dostávali 90 mg ticagreloru po dobu 12 měsíců a pak 60 mg spolu s aspirinem, a to dvakrát denně po dobu dalších třech let.
Profesor Carole Longsonová, ředitelka centra pro hodnocení technologií pro zdravotnictví NICE, řekla: „Navzdory dostupnosti účinné sekundární preventivní léčby existuje čtvrtina pacientů, kteří měli infarkt a které postihne další srdeční záchvat nebo mrtvice - často s devastujícími následky.“
Strach z opakování může mít významný negativní dopad na kvalitu života pacienta.
Je prokázáno, že Ticagrelor v kombinaci s aspirinem je účinný ve snižování nebezpečí dalších srdečních záchvatů a mrtvice u lidí, které již infarkt postihl.
Je nám potěšením, že při předběžném doporučení Ticagreloru můžeme rozšířit možnosti léčby, které jsou dostupné mnoha tisícům lidí, kteří z něj budou moci těžit.
Protože informace o účinnosti a bezpečnosti Ticagreloru - především o nebezpečí krvácení - nad rámec tří let jsou omezené, není v návrhu léčba nad tuto dobu doporučena.
S počítačovou kulturou začaly vzkvétat podvody v muslimských oblastech
Starosta města Tower Hamlets Lutfur Rahman byl minulý rok odvolán z funkce kvůli korupci, což bylo spojeno s vládní zprávou
Kultura politické korektnosti vedla k přehlížení šířících se podvodů v muslimských komunitách, uvádí se dnes ve vládní zprávě.
Ex-ministr Sir Eric Pickles ostře kritizuje policii, volební inspektory a radnice za to, že ignorovaly zneužívání voličů kvůli „přecitlivělosti na etnicitu a náboženství.“
Dřívější tajemník komunity, nyní vládce protikorupčních zásahů, řekl, že zastrašování voličů na základě jejich náboženství je tak zlé, že policie by měla před volebními místnostmi udělat kordóny a vystražené voliče chránit.
Doporučil, aby si voliči s sebou vzali doklad totožnosti a mohli při volbách prokázat, kdo jsou.
V současnosti voliči stačí uvést své jméno a adresu.
Ve zprávě se dále navrhuje na prsty osob při odevzdávání hlasu nanést nesmazatelný inkoust, aby se předešlo tomu, že někdo bude volit dvakrát.
Whistlebloweři by měli mít větší ochranu, říká Pickles.
Žádá, aby tisk dostal větší přístup k dokladům ze zasedání a k rozhodnutím, která přijímají neoficiální výbory nebo pracovmí skupiny.
„Nejedná se pouze o ochranu proti volebním podvodům, ale také o ochranu místní vlády před širším korupčním prostředím a finančními podvody, které s tím jdou ruku v ruce,“ řekl.
Zprávu si vyžádala Downing Street jako důsledek volebního skandálu v Tower Hamlets v západním Londýně.
V loňském roce zvláštní volební soud rozhodl, úřadující starosta města Lutfur Rahman by měl být odvolán ze svého postu po obvinění z korupce a nelegálních praktik.
Soud shledal, že Rahman „cynicky zasáhl“ náboženské cítění své muslimské komunity a umlčel své kritiky obviněními z rasizmu a islamofobie.
Rahman podle svých slov „vedl svou kampaň tak, aby bylo náboženskou povinností oddaných muslimů, aby pro něj hlasovali.“
Až 300 hlasů bylo zpochybněno nebo jako výsledek krádeže totožnosti, kdy člověk hlasuje a vydává se zě někoho jiného.
Sir Eric uvedl, že existují důkazy o podvodech v celé zemi.
Vyjádřil zvláštní znepokojení nad podvody u korespondenčního hlasování - o kterém se tvrdí, že starší členové muslimské komunity během něj vyvíjeli nátlak na lidi, aby hlasovali pro kandidáta, které oni zvolili.
Sir Eric, na snímku, dal několik doporučení, jak volební systém vyčistit, včetně předložení dokladu totožnosti
V jeho zprávě se uvádí: „Byl předložen důkaz o tom, že na zranitelné členy některých etnických menšin, především na ženy a mladé lidi, byl vyvíjen nátlak, aby hlasovali podle vůle starších, a to především ve společenstvích pocházejících z Pákistánu a Bangladéše.“
„Vznikly obavy že... státní instituce přivíraly před takovým chováním oči kvůli „politicky korektní“ přecitlivělosti vůči etnickému původu a náboženství.“
Sir Eric přednesl 50 doporučení, jak systém vyčistit, včetně toho, aby bylo politickým aktivistům zakázáno manipulovat s korespondenčním hlasy a zabránit tak „vytěžování hlasů.“
Zpráva, kterou nyní hodnotí Theresa Mayová, také žádá o důkladnější kontroly při registracích, aby se zabránilo využívání volebních seznamů pro imigrační podvody a podvody s dávkami.
Zvážit možnost žádat od voličů, aby před hlasováním předložili doklad totožnosti.
Použití nesmazatelného inkoustu na prsty osob při hlasování, aby se předešlo tomu, že někdo bude volit dvakrát.
Provádění systematických kontrol národnosti osob, aby se zajistilo, že mohou volit.
Žádosti o automatické korespondenční hlasování omezit na dobu tří let.
Zakázat politickým agitátorům a aktivistům, aby manipulovali s odevzdanými korespondenčními hlasy a volebními obálkami.
Dát policii oprávnění vytvořit okolo volebních místností kordony.
Změnit zákony, aby bylo snadnější stíhat osoby vyvíjející nezákonný nátlak podle reformního zákona z roku 1983.
Zakázat pořizování fotografií ve volebních místnostech.
Vyžadovat, aby ve volebních místnostech pracovali pouze Angličané (s výjimkou Walesu).
Posílit školení a zajistit tak, aby pracovníci dodržovali pravidlo, že do volebních kabin chodí voliči jednotlivě.
Sir Eric kritizuje londýnskou policii a říká, že je „překvapující“, že po případu Tower Hamlets nebyla vznesena žádná obvinění z trestných činů.
„Soud pro otázky voleb vyloučil Lutfura Rahmana a jeho agenta za litanii korupce a nelegálních praktik“, řekl.
Z řady důvodů byl shledán vinným nad rámec důvodných pochybností - v síle důkazu trestného činu.
Také kritizuje bezvýsledné „kontrol zaškrtávacích políček“ v odděleních pro registraci voličů na radnici.
Sir Eric řekl: „Loňské rozhodnutí soudu v případu Tower Hamlets probuzením.
Náš národ má hrdý odkaz kolébky parlamentní demokraci, ale znepokojující a skryté šíření volebních podvodů a stav zamítání některými orgány tuto reputaci ohrožují.
Pobláznění cyklistickou dvojnicí vévodkyně Kate a dalších dvojníků známých osobností na olympiádě v Riu
Fanoušci olympijkých her v Riu 2016 se tento týden zbláznili do francouzské cyklistky Pauline Ferrand-Prevotové, která je až nápadně podobná vévodkyni z Cambridge.
Ale čtyřiadvacetiletá olympionička není zdaleka jedinou atletkou usilující letos o zlato, která se může pochlubit vlastním dvojníkem z řad známých osobností - alespoň ne podle sociálních sítí.
Na oslavu olympijských her v Riu a všech známých osobností, které se v současné době objevují na našich obrazovkách, sloupek pro ženy FEMAIL sestavil seznam olympioniků, kteří jsou víc než vzdáleně podobní holywoodským celebritám.
Jako lovená zvěř: Člen amerického týmu lukostřelců Brady Ellison (vlevo) byl od malička přirovnáván k Leonardu DiCapriovi
Vedle dvojnice Kate na cyklistické dráze řada lidí online rychle poukázala na to, že jistý lukostřelec by mohl být dvojčetem hvězdného Leonarda DiCapria.
Závodník z tým amerických lukostřelců Brady Ellison způsobil na Twitteru bouři po té, co se vynořily jeho snímky, na kterých se nápadně podobá vlkovi z Wall Street.
Brady sám si všiml mediálního šílenství a přiznal, že o své podobnosti s Leem slýchával od malička.
„Sám žádnou velkou podobnost nevidí, snad kromě vousů,“ řekl Brady pro Huffington Post.
„Je to frajer a vypadá dobře, takže myslím, že je to kompliment.“
Jedno z nejpopulárnějších srovnání z Londýna 2012 bude letos bezpochyby zdůrazňováno ještě víc: nápadná podoba mezi britským skokanem do dálky Gregem Rutherfordem a oblíbeným hercem Neilem Patrickem Harrisem.
O ruské gymnastce Aliye Mustafinové s jejíma velkými, výraznýma očima, se říkalo, že je kopií kubánsko-americké zpěvačky Glorie Estefan.
A když se podíváme k plaveckému bazénu, jihoafrický plavec Cameron van der Burgh je již několik let přirovnáván k hvězdě seriálu Gell Matthewovi Morrisonovi.
A pro změnu: Uživatel si myslí, že Nathan se „atletickou verzí“ herce z filmu Počátek (Inception)
Dalším dlouholetým srovnáním je přirovnání tenisové hvězdy Rafaela Nadala a herce Joshe Hartnetta, kteří mají podobně husté obočí a rty.
Ruská stříbrná plavkyně Yulia Efimovová se pyšní nejen stejnou snědou pletí a blond vlasy, jako má Annalynne McCordová. A o Nathanu Adrianovi z týmu USA fanoušci říkají, že vypadá jako „atletická verze Josepha Gordona Levitta.“
Zdatné ženy: hvěda fotbalu Hope Solová (vlevo) a herečka seriálu Dexter Jennifer Carpenterová (vpravo) mají podobný tvar obličeje a očí
Nejenom jeden: Uživatel Twitteru byl velice potěšen, že podobností si všimli i ostatní
Na vlnách teorie: Podle tohoto uživatele možná existuje důvod za podobným vzhledem párů
Jedna uživatelka Twitteru před nedávnem na stránkách vyjádřila svou spokojenost nad tím, že „zbytek Internetu si myslí, že Hope Solová a Jennifer Carpenterová jsou v pravdě identické.“
Fotbalová hvězda Hope Solová a herečka seriálu Dexter Jennifer Carpenterová mají opravdu neuvěřitelně podobný tvar obličeje a očí.
Mezi dalšími oblíbenými srovnáními je Kerri Walsh-Jenningsová a její úsměv, který je téměř identický s úsměvem herečky Laura Linneyové, nebo držitelka zlaté medaile za gymnastiku Gabby Douglasová, pyšnící se svým nádherně širokým úsměvem, který jako by kopíroval úsměv Gabrielle Unionové, hvězdy filmu Bravo, girls!
Komentátor olympijských her stanice CBC se omlouvá za to, že o čínské plavkyni řekl, že „vybouchla“
Diváky středečního živého přenosu z olympijských her na stanici CBC pobouřil rozbor výkonu čtrnáctileté Ai Yanhanové komentátorem Byronem MacDonaldem. Plavkyně skončila na čtvrtém místě závodu žen na 4x200 m štafety volným stylem
Kanadská stanice CBC byla donucena omluvit se po té, co jeden z jejích komentátorů řekl, že se čtrnáctiletá čínská plavkyně během závodu „táhla jako smrad“ a „vybouchla“.
Komentátor Byron MacDonald se domníval, že jeho mikrofon byl vypnutý, když na konci finále štafety žen na 4x200 metrů volným stylem začal chrlit vlastní názory.
MacDonald, který měl do týmu komentátorů CBC přinést „oživení“, mimo jiné prohlásil: „Ta malá čtrnáctiletá z Číny to vzdala, ty bláho.“
Přílišné vzrušení, táhla se jako smrad, vybouchla.
Díky.
Čínská plavkyně Ai Yanhanová (14) uplavala druhou štafetu závodu v čase 1:57.79 - tedy o 1,61 vteřiny pomaleji než kanadská Taylor Rucková a umožnila Kanaďankám Čínu dotáhnout.
Diváci v Kanadě se začali rychle ozývat online a byli zděšeni tónem a jazykem, který komentátor použil
Emmett Macfarlane napsal na Twitter: „Prohlásil ten hlasatel na CBC, že čtrnáctiletá plavkyně z Číny „vybouchla“????“
Ten idiot si nevšiml, že je ještě ve vysílání.“
Ai Yanhanová z Číny ve finále ženského štafetového závodu na 4x200 metrů volným stylem byla popsána jako: „Ta malá 14letá z Číny to vzdala, ty bláho.“
Kritika Byrona MacDonalda na Twitteru přišla ze všech stran a mnozí žádali jeho odvolání
Když se uživatelé Twitteru dozvěděli, jak necitlivý Byron MacDonald je, nedrželi se zpátky
Další uživatelka, Sarah Paradisová, napsala: 'Wow #ByronMacDonald.
Zastupujete CBC a Kanadu a zní to, jak bychom byli banda rasistů.#znechucení.
Brzy poté se Scott Russel, který vysílání CBC hostil, omluvil za živý komentář MacDonalda a řekl: „Omlouváme se za komentář k výkonu plavkyně, který unikl do vysílání.“
Byla to nešťastná volba slov, je nám líto, že k tomu došlo.“
Stanice CBC se nakonec omluvila více než 90krát lidem, kteří tweetovali v odpovědi na komentář
Spolukomentátor Scott Russel se musel omluvit jménem MacDonalda
CBC pak zkopírovala a vložila jejich omluvu do odpovědi pro více než 90 uživatelů Twitteru, kteří si na poznámky komentátora MacDonalda stěžovali
Stanice se také rychle omluvila a uveřejnila prohlášení.
Upřímně lituje, že ta byla slova vyřčena, neměla se dostat do éteru.
Rychle jsme se omluvili našim divákům ve vysílání a těm, co nás sledují na sociálních sítích.
Aby bylo jasné, Byronovy komentáře se týkaly výkonu plavkyně, ne plavkyně samotné.
Jinými slovy se jednalo o nevhodnou a nešťastnou volbu slov. Byron se hluboce omlouvá za to, co řekl.
Ve čtvrtek odpoledne se Byron MacDonald omluvil v živém vysílání a pokusil se svou poznámku vysvětlit tvrzením, že nechtěl, aby vyzněla jako osobní útok.
„Rád bych se nyní omluvil za komentář, který jsem uvedl včera v noci po štafetě žen,“ řekl ve vysílání z olympiády na stanici CBC.
„Měl jsem na mysli výkon plavkyně a ne osobu plavkyně jako takovou.“
„Není potřeba říkat, že jsem neměl v úmyslu žádnou neúctu a velmi mě to mrzí.“
Zákazníci v Primark pohoršeni ženou, která si nestydatě zkoušela spodní prádlo uprostřed obchodu
Když se žena vysvlékla, aby si na prodejní ploše uprostřed Primark vyzkoušela kalhotky, nebyli si nakupující jistí, kterým směrem se dívat.
Aby to bylo ještě horší, zkoušela si, jak jí velikost padne, kalhotky si svlékla a vrátila je zpět do regálu.
V prohlížení pokračovala a nakonec si v obchodě v nákupním centrum Bouverie Place ve Flokestone vyzkoušela čtyři páry kalhotek.
Obchod Primark v nákupním centru Bouverie Place ve Folkestone, kde si žena zkoušela kalhotky před tím, než je vrátila do regálu
Matka dvou dětí Jenny Davidsonová, která byla v danou dobu v obchodě, uvedla, že záhadná žena se po vyzkoušení spodního prádla „znovu oblékla a vyšla z obchodu, aniž by si něco koupila.“
Řekla: „Lidé nemohli uvěřit vlastním očím.“
Stála uprostřed obchodu, vzala z regálu kalhotky, svlékla si svoje vlastní punčocháče a kalhotky a nasadila si je.
„Nepokoušela se ani najít nějaké diskrétní místo - jen tak tam stála, drzá jako opice.“
„Každý jen zíral, jak si kalhotky znovu svlékla, a evidentně se jí nelíbily, protože je vrátila zpět do regálu.“
To samé udělala ještě s třemi dalšími, než se konečně rozhodla, že se jí nic nelíbí, znovu se oblékla a odešla.
„Vypadala, že jí vůbec nevadí, kdo se dívá - ani, že by pomyslela na toho člověka, který se třeba koupí kalhotky, které si zkoušela.“
Slečna Davidsonová (33), která žije v Kentu, řekla: „Ta představa, že si někdo vezme domů kalhotky, které na sobě měl někdo jiný a nikdo je nevyčistil. To je hnusné.“
K události došlo v úterý odpoledne.
Slečna Davidsonová dodala: „Když odešla, posbírala jsem věci, které si evidentně zkoušela, abych je stáhla z prodeje - co je také jediné správné.“
„Děsila by mě představa, že si přinesu domů nové kalhotky a zjistím, že je na sobě měla jiná žena, svlékla si je a že nebyly vyprané.“
Mluvčí obchodu Primark řekl: „Primark ví o incidentu, ke kterému došlo v našem obchodě ve Folkestone v úterý 9. srpna.“
Veškeré dotčené výrobky byly staženy z prodeje.
Jak se bránit proti útoku zbraní pomocí Krav Maga
Svět venku je nebezpečný, ale díky tomuhle videu z Dailymail.com by pro vás mohl být o něco bezpečnější.
Mluvili jsme s Rhonem Mizrachi, velmistrem federace Krav Magy sídlícím v New Yorku, abychom zjistili, jak si poradit s ozbrojenými lupiči na blízkou vzdálenost.
Toto video vám ukáže, jak náhle získat nad násilníkem převahu, ať už se k vám přiblízí zepředu, nebo zezadu.
Pokud se k vám přiblíží zezadu, říká Mizrachi, pak první, co musíte udělat, je obrátit se, abyste svého útočníka viděli a „měli volnou dráhu střely“.
Uchopíte pak zbraň mezi své předloktí a rameno těsně předtím, než jej uhodíte do obličeje volným loktem.
Pak následuje koleno do slabin, a zatímco se útočník svíjí v bolestech, vykroutíte mu zbraň z ruky, udeříte jej hlavní do obličeje a začnete ustupovat, zbraň přitom budete držet namířenou na něj.
Pokud se k vám blíží ozbrojený muž zepředu, je to podobná technika - dostaňte své tělo z palebné linie, uchopte zbraň a vykruťte ji, aby darebák nemohl střílet.
Současně dejte do zbraně sílu a udeřte útočníka do hrudi, pak zbraň z jeho sevření vykruťte a začněte ustupovat, stále na něj přitom miřte.
Zní to složitě?
Podívejte se na video, kde přesně uvidíte, jak to Mizrachi dělá.
Nezapomeňte ale, že nejbezpečnějším způsobem, jak se z přepadení dostat - pokud nejste velmistrem Krav Maga - je vydat veškerou hotovost.
Cestovatel Ian Wright olizuje nejšpinavější místa v Evropě do cestovního průvodce
Britský cestovatel se rozhodl podrobit těžké zkoušce svůj imunitní systém a dávivý reflex - olizováním těch nejšpinavějších a nejnechutnějších míst v Evropě.
Moderátor a autor cestopisů Ian Wright (51), původem ze Suffolku, na důkaz síly svého imunitního systému oblízl svým jazykem eurovou bankovku, zábradlí na Piccadilly Circus, tlačítko splachovadla na toaletě ve vlaku a ruský veřejný telefon.
Před oblíznutím každého předmětu použil luminometr, aby ukázal sobě i nám všem, do čeho se pouští.
Experiment, na základě kterého byl natočen film Lickhiker's Guide to Inner Strength, ovšem přinesl zajímavé výsledky.
Nápad olíznout tlačítko splachovače ve vlaku, které použily tisíce jiných lidí, se může zdát naprosto odpudivý, nicméně třeba v kuchyňském dřezu je ve skutečnosti mnohem víc škodlivých bakterií.
Ian Wright během celé své cesty po Evropě hovořil s lékaři a specialisty ve zdravotnictví o posilování bakterií střevních flóry a o svém vlastním zdraví.
Naštěstí nic z toho, co olízl, mu v ústech nezanechalo nic horšího než pachuť.
Ian Wright se proslavil testováním odolnosti svých střev na cestách kolem světa a pojídáním podivných i úžasných věcí.
Během téhle mise zcela bezpečně svůj imunitní systém otestoval - od veřejných zábradlí na vlakových stanicích po splachovadlo
Ve filmu, který o tom natočil, říká: „Už od dětství jsem se o své zdraví moc nestaral a do pusy jsem si dával všechno možné, od hlíny po pojídání červů a bahnité vody.“
Ve filmu svou reputaci dozajista potvrdil.
Jediné, co odmítl, byly špinavé veřejné záchodky v Rusku.
Po jednoduchém stěru luminometr ukázal hodnotu více než 4000 jednotek.
Pro porovnání, čerstvě umyté ruce by měly mít méně než 60.
Jeden veřejný záchodek v Rusku ale olíznout odmítl po té, co jeho luminometr ukázal více než 4000 jednotek, zatímco čerstvě umyté ruce mají méně než 60
Ian Wright a finský výrobce mléčných výrobků Valio natočili cestovatelův film s názvem The Lickhiker's Guide to Inner Strength, který ukazuje počty bakterií na různých místech, jako například v koupelně
Ve filmu řekl: „Tohle je skoro to nejhnusnější, co jsem kdy na záchodě cítil.“
Nic špinavějšího než tohle neexistuje!
Olizovat nebudu nic, protože je to tu nechutné.
Film Lickhiker's Guide to Inner Strength byl natočen ve spolupráci s finským výrobcem mléčných výrobků Valio.
Společnost panu Wrightovi poskytla přípravek Valio Gefilus, který obsahuje bakterie mléčné kyseliny a vitamíny C a D, které u lidí pomáhají posilovat střevní bakterie a imunitní systém.
Niko Vuorenmaa, senior viceprezident společnosti Valio pro občerstvení, džusy a nové kategorie, řekl: „Chtěli jsme spotřebitelům nabídnout něco opravdu nového.
Něco, co by sledovali se zaujetí a zároveň by nám umožnilo vysvětlit přínosy probiotik.
Vymysleli jsme spousty bláznivých nápadů, které skončily nápadem „zavolejme Ianovi.“
Říká se, že zájem o zdraví střev se stává celosvětovým fenoménem.
Namísto toho, abychom pouze o výrobcích mluvili, jsme je chtěli dát do širších souvislostí - dobré a špatné bakterie v našem každodenním prostředí, důležitost zdraví střev a jak je to propojeno s imunitním systémem.
Rostoucí zájem o zdravá střeva je celosvětovým fenoménem a prostřednictvím tohoto dokumentu jsme spotřebitelům zajímavým způsobem přinesli podrobnější informace.
Také si myslím, že se ve filmu objevuje skvělý smysl pro humor!
Tom Hakala, který film režíroval, dodává: „Řekněme to takhle, Ian by ztratil můj respekt, kdyby olízl něco z toho, co jsem po něm chtěl - jako třeba ten nechutný ruský záchod, co se ve filmu objevuje.“
Olíznout některé věci bylo pro Iana přirozeně snazší, jiné zase pěkně těžké.
Jsem rád, že jsme olíznutí některých těch špinavých věcí natočili.“
Společnost Valio provedla v roce 2015 průzkum, podle kterého si 84 procent respondentů spojovalo bakterie kyseliny mléčné především se zdravím žaludku a střev a 58 procent respondentů uvedlo, že alespoň příležitostně užívají výrobky obsahující přidané bakterie kyseliny mléčné.
Rodina sociálně potřebných před vystěhováním poničila obecní budovu ve městě Saltash v Cornwallu
Rodina sociálně potřebných zanechala na svém obecním domě škodu ve výši 50 000 liber poté, co byli obvinění z terorizování svých sousedů.
Tanya Skeldonová a její partner Shaun Trebilcock byli vystěhováni z domu ve městě Saltash, Cornwall, po dlouhé řadě stížností proti nim.
Po jejich násilném vystěhování z domu byli úředníci bytového družstva šokováni, když zjistili, že se nemovitost nachází v havarijním stavu.
Ve zdech byly díry, podlahová krytina byla potrhaná, všude na podlaze se válely odpadky a zdi byly počmárané.
Rodina se již odstěhovala a má se za to, že bydlí v soukromém ubytování
Donna McEvoyová, ředitelka pro otázky bydlení ve společnosti Cornwall Housing uvedla, že měla obavy, zda dům půjde zachránit.
Řekla: „Pro lidi zde to byla noční můra a nemyslím si, že by lidé měli takhle žít.
Je třeba zvážit řadu okolností, protože tahle nemovitost vejde nejspíš do povědomí jako „ne až tak pěkná část“ Cornwallu.
Ta rodina je nechvalně známá a jejich jména jsou nechvalně známá.
Pár má tři syny, kteří v domě občas pobývali, a policie uvedla, že hrůzovláda, kterou rodina působila, patřily pouliční bitky s použitím baseballových pálek, zastrašování okolních obyvatel, užívání drog, distribuce drog a hlasitý křik, hádky a nadávky.
Skeldonové (47), jejíž jméno bylo uvedeno na nájemní smlouvě, byl v červnu udělen trest za antisociální chování.
V několika místnostech v domě, který možná bude zbourán, byly nalezeny zapáchající odpadky.
V domě, odkud se v minulosti distribuovaly drogy, byla vytrhaná podlahová krytina
Sousedé říkají, že je viděli na ulici, jak se perou, a pravidelně sem lidé volali policii
Společnost Cornwall Housing ji a jejího partnera násilím z domu tento týden vystěhovala poté, co dostali dodatečnou lhůtu 11 týdnů k tomu, aby se vystěhovali dobrovolně.
Sousedé, kterým se ulevilo, vystěhování přivítali s tím, že jejich životy byly živoucím peklem.
Jeden z nich řekl: „Nestarali se vůbec o nikoho.“
Žili jsme vedle nich 20 let a vždycky to bylo takhle.
Kolikrát jsme tady viděli policii, se nedá vůbec spočítat.
„Dneska ráno jsme nemohli spát.“
Vstali jsme, protože tady bylo neuvěřitelné ticho - na to nejsme zvyklí!
Bude tu pěkně, když jsou konečně pryč.
Adam Fitzpatrick, manažer pro dohled v sousedství společnosti Cornwall Housing, uvedl, že rodina nedokázala spolupracovat s místními autoritami.
Rodina v domě žila 20 let, k domu byla pravidelně přivolávána policie
Odpadky a staré hračky se povalovaly v zarostlé části obecního domu
Dodává: „Je ostuda, že nájemnice nedokázala přijmout odpovědnost za vlastní chování a za chování své rodiny. Vystěhování je vždy až tím posledním krokem, který společnost Cornwall Housing zvažuje.
Jednalo se velmi složitý případ, protože jejich chování bylo extrémní a jejich akce podle svědka musely její sousedy děsit.
Vážím si veškeré práce, kterou odvedl můj tým, policie z Devonu a Cornwallu a členové místní komunity, kteří nás statečně informovali.
Doufám, že tenhle krok přinese trochu pohodlí sousedům a současně s sebou ponese poselství, že nespolečenské chování nebudeme tolerovat.
Fitzpatrick řekl, že všem třem synům nájemnice, kteří v domě v různém čase žili, bylo okolo 20 let.
Znečištěná matrace, která po vystěhování zůstala na podlaze jedné z ložnic v domě
Pracovníci budou nyní muset odstranit hromady odpadků, které zůstaly pohozené okolo domu
V roce 2014 provedla police v domě razii a nalezla přes 70 gramů konopí, váhy, vybavení a 1 700 liber v hotovosti.
Skeldonová dostala pokutu, když byla shledána vinnou za držení drog třídy B, které chtěla prodávat.
Tvrdila, že peníze byly určeny na základy domu pro jejího syna, Leeho Skeldona, který zemřel při automobilové nehodě v roce 2013.
Má se za to, že Tanya a její partner po vystěhování nyní žijí v soukromém ubytování v Plymouthu.
Zdi v mnoha místnostech domu byly pomalované graffiti.
Policie říká, že budou usilovat o vystěhování nájemníků, kteří porušují pravidla jejich nájemních smluv
Angela Crowová z policie Denovu a Cornwallu uvedla, že vystěhování bylo vysláním jasného vzkazu pro ostatní nájemníky, kteří budou i nadále pravidla porušovat.
„Tohle je vzkaz všem těm, kteří si myslí, že se mohou chovat beztrestně, a těm, kteří by chtěli takové chování následovat,“ řekla.
Policie Denovu a Cornwallu nikdy nebude tolerovat zločinné a nespolečenské chování a i nadále bude spolupracovat s partnery na ochraně našich společenství.
Turisté v Portugalsku vyděšeni po nízkém přeletu vojenského tryskového letadla nad pláží
Turisté, kteří si vychutnávali sluneční paprsky v portugalském Aveiru, byli vyděšení k smrti
Letoun portugalského vojenského letectva P-3C Orion přelétával až neuvěřitelně nízko
Vojenské letectvo prohlásilo, že se jednalo o cvičný let, a trvalo na tom, že nedošlo k ohrožení bezpečnosti
Ve chvíli, kdy se nízko letící tryskáč snesl nad zaplněnou pláž, zachvátila vystrašené turisty panika.
Na dramatických záběrech je vidět, jak se vojenské letadlo dostává do vzdálenosti téměř na dotek od slunících se lidí na písečné pláži u města Aveiro v severním Portugalsku.
Turisté se začali zvedat poté, co je zneklidnil hluk motorů tryskového letadla, aniž by viděli, co se z mraků vynoří.
K incidentu došlo včera odpoledne na Costa Nova v blízkosti města Aveiro.
Daniel Fernandes, jeden z několika rekreantů, kteří uveřejnili videonahrávky dramatického přeletu na sociálních sítích, řekl: „Letadlo přeletělo dvakrát opravdu nízko a v jednom okamžiku se zdálo, že se zřítí.“
Nuno Arroja dodává: „Surfoval jsem a doopravdy jsem si myslel, že mi letadlo spadne na hlavu.“
Turisté na pláži v Aveiru byli zděšeni, když se z temnoty objevilo letadlo letící nízko
Portugalské vojenské letectvo dnes prohlásilo, že pilot letounu P-3C Orion byl na cvičném letu s cílem identifikovat rybářské lodi u pobřeží a musel se snést nízko, protože to byl jediný způsob, jak lodi zkontrolovat.
Letoun údajně letěl o něco níž, než je obvyklé, kvůli špatné viditelnosti způsobené kouřem z nedalekých lesních požárů. Letectvo nicméně trvá na tom, že bezpečnost lidí nebyla ohrožena.
Lesní požáry letos v létě zničily část pevninského Portugalska a vyžádaly si čtyři oběti na životech na ostrově Madeira.
