"""Pieces of the parser recipe (models/parsing/train.py) that run without training."""
from stanza.models.constituency.parse_transitions import CompoundUnary, Finalize, OpenConstituent, Shift, Transition

from paranmt.models.parsing.train import loadable_transition


def test_compound_transitions_are_saved_so_that_stanza_reads_them_back():
    """stanza 1.15 saves `CompoundUnary(S,VP)` / `Finalize(ROOT)` and fails to read them (IN_ORDER_COMPOUND models
    did not load); the rewritten form reads back as the transition that was saved."""
    for transition in (CompoundUnary("S", "VP"), CompoundUnary("ADVP|PRT"), Finalize("ROOT")):
        saved = repr(transition)
        assert Transition.from_repr(loadable_transition(saved)) == transition
    for transition in (Shift(), OpenConstituent("NP", "QP")):   # saved in a form stanza reads: left as they are
        assert loadable_transition(repr(transition)) == repr(transition)
    assert loadable_transition("CompoundUnary('S', 'VP', )") == "CompoundUnary('S', 'VP', )"
