"""The adversarial tasks' data, the Tai et al. BiLSTM classifier (tiny, a few epochs) and the broken-share count."""
import numpy as np
import pytest

from paranmt.models.adversarial.attack import attack, augmented, draw_templates
from paranmt.models.adversarial.classifier import ClassifierConfig, TextClassifier
from paranmt.models.adversarial.tasks import load_task
from paranmt.models.evaluation.transfer import TransferDataError

# two epochs at lr 1e-2 learn what five at 3e-3 did (SICK-E test[:200]: accuracy 0.735 vs 0.74, majority 0.61)
TINY = ClassifierConfig(dim=24, hidden=24, head=16, epochs=2, batch_size=16, lr=1e-2, device="cpu")


@pytest.fixture(scope="module")
def sick(shared_data):
    return load_task("sick-e", shared_data)


def test_task_splits(shared_data, sick):
    assert {k: len(v) for k, v in sick.splits.items()} == {"train": 4500, "dev": 500, "test": 4927}
    first = sick.splits["train"][0]
    assert first.sentences[0].startswith("A group of kids is playing in a yard")
    assert sick.labels[first.label] == "NEUTRAL" and sick.pair
    mr = load_task("mr", shared_data)
    sizes = {k: len(v) for k, v in mr.splits.items()}
    assert sizes == {"train": 8529, "dev": 1066, "test": 1067} and not mr.pair
    assert load_task("mr", shared_data).splits["test"][:5] == mr.splits["test"][:5]          # fixed split
    with pytest.raises(TransferDataError, match="unknown task"):
        load_task("sst", shared_data)
    with pytest.raises(TransferDataError, match="not found"):
        load_task("sick-e", shared_data / "nowhere")


def test_classifier_learns_sick_entailment_and_attack_counts(sick):
    train, test = sick.splits["train"][:1000], sick.splits["test"][:200]
    classifier = TextClassifier(len(sick.labels), True, TINY).fit(train)
    majority = max(np.bincount([e.label for e in test])) / len(test)
    accuracy = classifier.accuracy(test)
    assert accuracy > majority                                    # it learned something beyond the prior
    again = TextClassifier(len(sick.labels), True, TINY).fit(train)
    assert np.array_equal(again.predict(test), classifier.predict(test))      # seeded: deterministic on CPU
    # the broken share by hand: the sentence itself as a "paraphrase" never breaks anything; a contradiction of
    # sentence B does break the examples it flips
    predictions = classifier.predict(test)
    same = attack(classifier, test, [[e.sentences[0]] for e in test])
    assert same.broken == 0 and same.correct == int((predictions == [e.label for e in test]).sum())
    assert same.accuracy == pytest.approx(accuracy) and same.with_paraphrases == len(test)
    negated = [[e.sentences[1].replace(" is ", " is not ", 1)] for e in test]
    flipped = attack(classifier, test, negated)
    variants = [e.with_paraphrase(p[0]) for e, p in zip(test, negated)]
    by_hand = sum(1 for e, p, q in zip(test, predictions, classifier.predict(variants)) if p == e.label != q)
    assert flipped.broken == by_hand and flipped.broken_share == pytest.approx(by_hand / flipped.correct)
    assert attack(classifier, test, [[] for _ in test]).broken == 0


def test_augmentation_and_template_draws(sick):
    train = sick.splits["train"][:3]
    extra = augmented(train, train[:2], [["one paraphrase", "two"], []])
    assert len(extra) == 5 and extra[3].sentences == ("one paraphrase", train[0].sentences[1])
    assert extra[3].label == train[0].label
    pool = [f"(S(NP)(VP)({i}))" for i in range(20)]
    drawn = draw_templates(pool, 10, index=7)
    assert len(set(drawn)) == 10 and set(drawn) <= set(pool) and drawn == draw_templates(pool, 10, index=7)
    assert drawn != draw_templates(pool, 10, index=8) and draw_templates(pool[:4], 10, 0) == pool[:4]


def test_the_encoder_gives_the_packed_lstms_final_states_and_gradients():
    """The classifier's sentence state over padded input (torch's fused LSTM layer) equals the final states of the
    same LSTM over a packed sequence, the code it replaced, with the same gradients."""
    import torch
    from torch import nn
    from paranmt.models.adversarial.classifier import BiLSTMClassifier

    torch.manual_seed(3)
    model = BiLSTMClassifier(50, 3, pair=False, config=ClassifierConfig(dim=8, hidden=6, head=5))
    lengths = torch.tensor([1, 7, 3, 7, 2, 5])
    ids = torch.randint(2, 50, (6, 9)) * (torch.arange(9)[None, :] < lengths[:, None])
    ours = model.encode(ids, lengths)
    packed = nn.utils.rnn.pack_padded_sequence(model.embed(ids), lengths, batch_first=True, enforce_sorted=False)
    final = model.lstm(packed)[1][0]
    reference = torch.cat([final[0], final[1]], dim=-1)
    torch.testing.assert_close(ours, reference, rtol=1e-4, atol=1e-5)
    weights = torch.randn_like(ours)
    grads = torch.autograd.grad((ours * weights).sum(), list(model.lstm.parameters()) + [model.embed.weight])
    reference_grads = torch.autograd.grad((reference * weights).sum(),
                                          list(model.lstm.parameters()) + [model.embed.weight])
    for ours_grad, reference_grad in zip(grads, reference_grads):
        torch.testing.assert_close(ours_grad, reference_grad, rtol=1e-4, atol=1e-5)
