"""The built-in lesson decks (``deck:NAME``): Bishop's (2006) chapter 4 told slide by slide.

Each slide is a complete session made from a built-in example (:func:`probviz.data.examples.session`)
with the model, parameters, layers, priors and training run the lesson needs at that point.
"""

from __future__ import annotations

import os
from dataclasses import replace
from typing import Callable

from probviz.data import examples
from probviz.data.deck import Deck, Slide, read_deck
from probviz.data.files import DataError
from probviz.models.training import TrainingSpec

DECKS: dict[str, tuple[str, Callable[[], Deck]]] = {}


def builtin(name: str, summary: str):
    def register(fn):
        DECKS[name] = (summary, fn)
        return fn
    return register


def deck(name: str) -> Deck:
    """The built-in deck ``name``; a ValueError listing the decks when there is none."""
    try:
        return DECKS[name][1]()
    except KeyError:
        raise ValueError(f"no deck named {name!r}; the built-in decks are "
                         f"{', '.join('deck:' + n for n in DECKS)}") from None


def load_deck(spec: str) -> Deck:
    """The deck ``spec`` names wherever a deck goes: a built-in one (``deck:NAME``) or a .probvizdeck file."""
    if spec.startswith("deck:"):
        try:
            return deck(spec.split(":", 1)[1])
        except ValueError as e:
            raise DataError(str(e)) from None
    if not os.path.exists(spec):
        raise DataError(f"{spec}: no such file")
    return read_deck(spec)


def _session(example: str, model: str = "lda", layers=("heatmap", "boundaries", "points"), params=None, **changes):
    """Example ``example`` as it opens, then showing ``model`` with ``params`` and ``layers``."""
    s = examples.session(example)
    merged = {**s.params, **({model: dict(params)} if params else {})}
    return replace(s, model=model, params=merged, layers=sorted(layers), **changes)


def _slide(title: str, notes: str, session, hide=()) -> Slide:
    return Slide(title, " ".join(notes.split()), session, tuple(hide))


GENERATIVE = "Generative against discriminative"
DISCRIMINANT = "Discriminant functions"


@builtin("generative", "the fruit data, LDA, the priors, QDA, shared against own covariances, logistic "
                       "regression, Newton's steps, the truth and its Bayes boundary, a wrong model, learning "
                       "curves (Bishop 1.5, 4.2, 4.3)")
def generative() -> Deck:
    both = ("heatmap", "boundaries", "ellipses", "points")
    return Deck(GENERATIVE, (
        _slide("Apple or peach?", """
            Each fruit is a point x = (roughness, colour) with a label; the new fruit at x = (2.3, 1.5) has none.
            Bishop 1.5.4 splits the task in two: inference, finding p(C_k|x), then the decision. A generative model
            gets p(C_k|x) through Bayes' theorem (eq. 1.82) from p(x|C_k) and p(C_k).""",
               _session("fruit", layers=("points",)), hide=("training", "lab", "weights")),
        _slide("LDA: Gaussian classes sharing one covariance", """
            With p(x|C_k) = N(x|μ_k, Σ) the quadratic terms cancel and p(C₁|x) = σ(wᵀx + w₀) with w = Σ⁻¹ (μ₁ − μ₂)
            (Bishop 4.2.1, eqs. 4.65-4.67): the boundary is a straight line. The maximum-likelihood fit is the class
            frequencies, the class means and the pooled covariance (section 4.2.2, eqs. 4.73-4.80). At the probe
            p(apple|x) = 0.823.""",
               _session("fruit", layers=both), hide=("training", "weights")),
        _slide("The priors shift the boundary in parallel", """
            The priors enter only through the bias w₀ (Bishop eq. 4.67, and w_k0 in eq. 4.70), so changing them
            moves the boundary parallel to itself (section 4.2.1). Here p(apple) is set to 0.3 by hand, against the
            data's 0.7: the line moves towards the apples and the probe's posterior falls.""",
               _session("fruit", layers=both, priors=(0.3, 0.7)), hide=("training", "weights")),
        _slide("QDA: each class its own covariance", """
            With a covariance Σ_k of each class's own in eq. 4.64, the quadratic terms of the two Gaussians no
            longer cancel and the boundary is a conic: a quadratic discriminant (Bishop 4.2.1). The fruit were drawn
            with one covariance, so QDA's curve stays close to LDA's line, at the cost of three more parameters.""",
               _session("fruit", "qda", layers=both), hide=("training", "weights")),
        _slide("Shared against own covariances", """
            Two classes share a covariance and the third has its own, as in Bishop's figure 4.11 (section 4.2.1).
            QDA (solid) draws curves where the covariances differ; LDA (dashed) forces one pooled covariance (eq.
            4.78) on all three and can only draw lines.""",
               _session("shared-vs-own-covariance", "qda", layers=both, compare="lda"),
               hide=("training", "weights")),
        _slide("Two classes share a covariance, one has its own", """
            Tied covariances pool the covariance within a group of classes, as eq. 4.78 pools it over all of them.
            Between red and green, which share one, the quadratic terms cancel and the boundary is a line (Bishop
            4.2.1); between either of them and blue it is a conic.""",
               _session("tied", "tied", layers=both), hide=("training", "weights")),
        _slide("Logistic regression: the posterior directly", """
            The discriminative model fits p(C₁|φ) = σ(wᵀφ) itself (Bishop eq. 4.87), by maximum likelihood on the
            cross-entropy (eq. 4.90), whose gradient is Σ_n (y_n − t_n) φ_n (eq. 4.91). In M dimensions it has M + 1
            parameters against the Gaussian model's M(M + 5)/2 + 1 (section 4.3.2). LDA's line is dashed for
            comparison.""",
               _session("fruit", "logistic", compare="lda"), hide=("weights",)),
        _slide("Newton's steps: iterative reweighted least squares", """
            The cross-entropy is convex, with Hessian H = ΦᵀRΦ (Bishop 4.3.3, eqs. 4.97-4.98), so Newton-Raphson,
            w_new = w_old - H⁻¹∇E (eq. 4.92), finds its unique minimum. Each step solves a weighted least-squares
            problem (eq. 4.99). Here two steps from w = 0; press the full stop (.; Train > Step) for one more: a few reach the
            optimum.""",
               _session("fruit", "logistic", training=TrainingSpec("newton", None, "zero", 2, 0, True)),
               hide=("weights",)),
        _slide("The truth and its Bayes boundary", """
            These points were drawn from known Gaussians: p(apple) = 0.7, one covariance for both. Deciding by the
            true posterior minimises the probability of a mistake (Bishop 1.5.1, eq. 1.78); its boundary is
            dash-dotted. LDA's model is the right one here, so its line lies close to it.""",
               _session("fruit", layers=("boundaries", "points", "truth")), hide=("training", "weights")),
        _slide("When the model is wrong", """
            Here the classes do not share a covariance, so LDA's assumption is wrong while logistic regression
            assumes nothing about p(x|C_k) and models p(C_k|x) by softmax (eq. 4.104). A discriminative model has
            fewer parameters and can predict better when the class-conditional densities are poorly modelled (Bishop
            4.3); a generative one can sample data and handle missing inputs (section 1.5.4).""",
               _session("shared-vs-own-covariance", "softmax", layers=("boundaries", "points", "truth"),
                        compare="lda"), hide=("training", "weights")),
        _slide("How many points each model needs", """
            Both models are fitted here to 25 of the 250 points; the other 225, hollow, are held out. Tools >
            Learning curves…, then Run, draws the true error of each against the number of points per class,
            averaged over many training sets drawn from the truth. With few points LDA, whose assumptions hold here, is nearer
            the Bayes error: its means and one shared covariance (eqs. 4.75-4.80) are estimated well from little
            data (Bishop 4.2.2). Logistic regression fits its M + 1 weights to p(C_k|x) alone (section 4.3.2) and needs more
            points to settle; as they grow both reach the Bayes error, since the true boundary is a line.""",
               _session("fruit", layers=("boundaries", "points", "truth"), compare="logistic", split=(0.9, 1)),
               hide=("training", "weights")),
    ))


@builtin("discriminant", "least squares masking a class, its outliers, Fisher's projection, the perceptron, "
                         "one-vs-rest and one-vs-one ambiguity (Bishop 4.1)")
def discriminant() -> Deck:
    regions = ("decision", "boundaries", "points")
    return Deck(DISCRIMINANT, (
        _slide("Least squares masks a class", """
            Least squares fits 1-of-K targets in closed form, W = X⁺T (Bishop 4.1.3, eq. 4.16), and assigns the
            class with the largest y_k(x) (eq. 4.9). With three classes along a line the middle one's y_k is never
            the largest anywhere: it is masked, as in Bishop's figure 4.5.""",
               _session("three-in-a-line", "leastsquares", layers=regions), hide=("training", "weights")),
        _slide("Softmax regression does not", """
            On the same points softmax regression (Bishop 4.3.4, eq. 4.104) gives the middle class its region. Least
            squares is maximum likelihood under a Gaussian conditional distribution, far from binary targets
            (section 4.1.3); the cross-entropy (eq. 4.108) suits them.""",
               _session("three-in-a-line", "softmax", layers=("heatmap", "boundaries", "points")),
               hide=("weights",)),
        _slide("Least squares is not robust", """
            A few far points of one class drag the least-squares boundary, although they are classified correctly
            anyway: the sum of squares penalises predictions that are too correct (Bishop 4.1.3, figure 4.4).
            Logistic regression, dashed, barely moves.""",
               _session("outliers", "leastsquares", layers=regions, compare="logistic"), hide=("training", "weights")),
        _slide("Fisher's projection", """
            Projected onto the line joining the class means the two long classes overlap. Fisher's criterion J(w)
            (Bishop 4.1.4, eqs. 4.25-4.26) weighs the projected means' separation against the within-class spread,
            and is largest at w proportional to S_W⁻¹(m₂ − m₁) (eq. 4.30), as in figure 4.6.""",
               _session("fisher-projection", "fisher", layers=regions), hide=("training", "weights")),
        _slide("The perceptron", """
            The perceptron decides by the sign of w^T φ(x) (Bishop eq. 4.52) and learns from its mistakes: for a
            misclassified point, w gains η φ_n t_n (eq. 4.55), a step of stochastic gradient descent on the
            perceptron criterion (eq. 4.54). These two classes can be separated by a line, so by the convergence
            theorem it stops after finitely many updates (section 4.1.7).""",
               _session("outliers", "perceptron", layers=regions), hide=("weights",)),
        _slide("The perceptron, one point at a time", """
            Sixty-one steps of eq. 4.55 from w = 0, one point per step in file order: the ringed point is this
            step's, and w changes only when that point is misclassified (Bishop figure 4.7). Step on with the full stop
            (.; Train > Step): a single
            update can raise the number of mistakes, since it reduces only that point's share of the criterion
            (section 4.1.7). On classes no line separates the perceptron never settles.""",
               _session("outliers", "perceptron", layers=regions,
                        training=TrainingSpec("sgd", 1.0, "zero", 61, 0, True)),
               hide=("weights",)),
        _slide("One-versus-the-rest leaves regions undecided", """
            K − 1 or K two-class discriminants, each separating one class from the rest, leave regions that no class
            or several classes claim (Bishop 4.1.2, figure 4.2, left). Here least squares with y_k > ½ for each
            class; the undecided regions are hatched.""",
               _session("shared-vs-own-covariance", "leastsquares", layers=regions, params={"scheme": "one-vs-rest"}),
               hide=("training", "weights")),
        _slide("One-versus-one: a vote that can tie", """
            K(K − 1)/2 discriminants, one for each pair of classes, vote; where the votes tie the region is
            ambiguous (Bishop 4.1.2, figure 4.2, right). Here least squares decides each pair; the ambiguous regions
            are hatched.""",
               _session("shared-vs-own-covariance", "leastsquares", layers=regions, params={"scheme": "one-vs-one"}),
               hide=("training", "weights")),
        _slide("A single K-class discriminant", """
            K linear functions y_k(x) = w_kᵀx + w_k0 and the rule 'the largest wins' (Bishop eq. 4.9) leave no
            ambiguity: each decision region is singly connected and convex (section 4.1.2, figure 4.3). Least
            squares fitted here on the same points as the two slides before leaves no point undecided.""",
               _session("shared-vs-own-covariance", "leastsquares", layers=regions, params={"scheme": "k-class"}),
               hide=("training", "weights")),
    ))
