"""The fairseq backend of `Translator` (paranmt.models.nmt.translator): the reference for fairseq models."""
from __future__ import annotations

from paranmt.models.device import Device
from paranmt.models.nmt.model_dir import ModelDir
from paranmt.models.nmt.translator import Hypothesis, Translation, Translator


class FairseqTranslator(Translator):
    """Reference backend: fairseq's hub interface over a (trusted) checkpoint.

    torch >= 2.6 loads with weights_only=True, which rejects the `argparse.Namespace` that fairseq pickles into
    its checkpoints; this backend allowlists exactly that class (paranmt.models.nmt.export.allow_fairseq_checkpoints)
    and keeps weights-only loading on. The checkpoint is loaded weights-only before fairseq sees it (fairseq's own
    load would follow TORCH_FORCE_NO_WEIGHTS_ONLY_LOAD), so one that pickles other classes is refused with one
    line naming it (UnsafeFileError) and nothing from it runs (docs/translate.md).
    """

    def __init__(self, model: ModelDir, device: Device, max_target_tokens: int = 200, source_lang: str = "cs",
                 target_lang: str = "en"):
        super().__init__(model, device, max_target_tokens, source_lang, target_lang)
        import torch
        from fairseq import hub_utils

        from paranmt.models.files import reading
        from paranmt.models.nmt.export import load_checkpoint

        if device.kind == "cpu" and device.threads:
            torch.set_num_threads(device.threads)
        checkpoint = model.fairseq_checkpoint
        with reading(checkpoint, "fairseq checkpoint (with its dict.*.txt beside it)"):
            load_checkpoint(checkpoint)     # weights-only, before fairseq sees the file; allowlists its Namespace
            loaded = hub_utils.from_pretrained(str(checkpoint.parent), checkpoint_file=checkpoint.name,
                                               data_name_or_path=str(checkpoint.parent),
                                               source_lang=model.source_lang, target_lang=model.target_lang)
        self.hub = hub_utils.GeneratorHubInterface(loaded["args"], loaded["task"], loaded["models"])
        self.hub.eval()
        if device.kind == "cuda":
            self.hub.cuda()
            if device.fp16:
                self.hub.half()
        self.src_dict, self.tgt_dict = self.hub.task.source_dictionary, self.hub.task.target_dictionary

    def translate(self, sources: list[str], beam: int = 12, nbest: int = 0) -> list[Translation]:
        import torch

        if not sources:
            return []
        encoded = [self.src_dict.encode_line(" ".join(p), add_if_not_exist=False, append_eos=True).long()
                   for p in self.pieces(sources)]
        # one batch as given by the caller (the transform already batches by a token budget)
        self.hub.cfg.dataset.max_tokens = None
        self.hub.cfg.dataset.batch_size = len(encoded)
        with torch.inference_mode():
            hypotheses = self.hub.generate(encoded, beam=beam, lenpen=1.0, max_len_a=0,
                                           max_len_b=self.max_target_tokens, unnormalized=False)
        results = []
        for hypos in hypotheses:
            decoded = [Hypothesis(self._text(h["tokens"]), float(h["score"])) for h in hypos]
            best = hypos[0]
            results.append(Translation(decoded[0].text, decoded[0].score, int(len(best["tokens"])),
                                       decoded[:nbest] if nbest > 0 else []))
        return results

    def _text(self, tokens) -> str:
        pieces = [self.tgt_dict[int(t)] for t in tokens if int(t) != self.tgt_dict.eos()]
        return self.detokenize(pieces)
