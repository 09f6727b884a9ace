"""Model names, labels and parameter specifications: the GUI's forms and the CLI's flags read these."""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from probviz.models.discriminant import SCHEMES, Fisher, LeastSquares, Perceptron
from probviz.models.gaussian import LDA, QDA, GaussianNB, TiedCovariance, parse_groups
from probviz.models.logistic import (
    BASIS_CHOICES, DEFAULT_ALPHA, DEFAULT_BASIS, DEFAULT_CENTERS, DEFAULT_L2, DEFAULT_STANDARDIZE, DEFAULT_WIDTH,
    LogisticRegression, SoftmaxRegression,
)
from probviz.models.rbf import parse_centers
from probviz.models.probit import ProbitRegression


@dataclass(frozen=True)
class ParamSpec:
    """One model parameter: how to show it and which values it takes."""

    name: str
    label: str
    kind: str  # "float", "choice", "bool", "text"
    default: object
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple = ()
    log_scale: bool = False
    cli: bool = True  # a flag of its own from the registry (False: the command line spells it itself)
    validate: object = None  # "text": a function that raises a ValueError saying what is wrong with a text
    flag: str = ""  # the command line's flag when not --name (--width is already the figure's width in export)

    def check(self, value):
        """``value`` as this parameter takes it, or a ValueError saying what it takes."""
        if self.kind == "float":
            ok = isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value) and (
                self.minimum is None or value >= self.minimum) and (self.maximum is None or value <= self.maximum)
            if not ok:
                raise ValueError(f"{self.name} must be a number from {self.minimum:g} to {self.maximum:g}, "
                                 f"got {_shown(value)}")
            return float(value)
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise ValueError(f"{self.name} must be true or false, got {_shown(value)}")
            return value
        if self.kind == "text":
            if not isinstance(value, str):
                raise ValueError(f"{self.name} must be text, got {_shown(value)}")
            if self.validate is not None:
                self.validate(value)
            return value
        if value not in self.choices or not isinstance(value, str):
            raise ValueError(f"{self.name} must be one of {', '.join(self.choices)}, got {_shown(value)}")
        return value


def _shown(value) -> str:
    text = "null" if value is None else repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


@dataclass(frozen=True)
class ModelInfo:
    name: str
    cls: type
    description: str
    params: tuple[ParamSpec, ...] = field(default_factory=tuple)

    @property
    def label(self) -> str:
        return self.cls.label

    @property
    def generative(self) -> bool:
        return self.cls.generative

    @property
    def probabilistic(self) -> bool:
        """False for the discriminant functions of Bishop 4.1: they assign classes, no p(C_k|x)."""
        return self.cls.probabilistic

    def defaults(self) -> dict:
        """The parameters a new document, ``probviz fit`` and ``probviz export`` start from."""
        return {p.name: p.default for p in self.params}

    def settings_text(self, params: dict) -> str:
        """This model's settings in ``params`` (the defaults where absent), as the Model panel labels them, those
        that take part only: α with the Bayesian view (which replaces the L2 strength), the centres and width
        with the rbf basis. Empty for a model without any."""
        values = {**self.defaults(), **params}
        bayes, rbf = bool(values.get("bayes")), values.get("basis") == "rbf"
        parts = []
        for p in self.params:
            v = values[p.name]
            if (p.name == "alpha" and not bayes) or (p.name == "l2" and bayes) or \
                    (p.name in ("centers", "width") and not rbf):
                continue
            if p.kind == "bool":
                shown = "yes" if v else "no"
            elif p.kind == "float":
                shown = "automatic" if p.name == "width" and v == 0 else f"{v:g}"
            elif p.kind == "text" and not v:
                shown = "a 3 x 3 lattice over the points" if p.name == "centers" else "none"
            else:
                shown = str(v)
            parts.append(f"{p.label}: {shown}")
        return " · ".join(parts)

    def check(self, params: dict) -> dict:
        """The known parameters of ``params``, each checked (a ValueError names the first bad one);
        names this model does not have are dropped."""
        return {p.name: p.check(params[p.name]) for p in self.params if p.name in params}


REG_COVAR = ParamSpec(
    "reg_covar", "Covariance shrinkage", "float", 0.0,
    "Shrink each covariance toward a circle of the same size by this fraction (0 = maximum likelihood).",
    minimum=0.0, maximum=1.0)
L2 = ParamSpec(
    "l2", "L2 strength", "float", DEFAULT_L2,
    "Penalty (l2/2)·Σ||w_k||² on the weights (not the biases); l2 = 1/C of scikit-learn. "
    "Keeps the weights finite when the classes are separable.",
    minimum=0.0, maximum=100.0, log_scale=True)
BASIS = ParamSpec(
    "basis", "Basis functions φ(x)", "choice", DEFAULT_BASIS,
    "linear: x1, x2; quadratic adds x1², x1·x2, x2²; cubic adds the third-order terms; rbf: Gaussian radial "
    "basis functions φ_m(x) = exp(−‖x − μ_m‖²/(2s²)) around the centres μ_m, of width s (Bishop 4.3.1, figure 4.12).",
    choices=BASIS_CHOICES)
CENTERS = ParamSpec(
    "centers", "RBF centres μ_m", "text", DEFAULT_CENTERS,
    "The centres of the Gaussian basis functions (basis rbf), in the units of x: x,y pairs separated by ';' "
    "(0,0;1,1). Empty: a 3 x 3 lattice over the points' bounding box. Drawn as open diamonds.",
    validate=parse_centers)
WIDTH = ParamSpec(
    "width", "RBF width s", "float", DEFAULT_WIDTH,
    "The width s of every Gaussian basis function (basis rbf), in the units of x: φ_m(x) = exp(−‖x − μ_m‖²/(2s²)). "
    "0: the mean distance from each centre to its nearest neighbour.",
    minimum=0.0, maximum=1e6, log_scale=True, flag="--rbf-width")
BAYES = ParamSpec(
    "bayes", "Bayesian view (Laplace)", "bool", False,
    "Treat w as uncertain: a Gaussian prior N(w|0, α⁻¹I) on every weight, the bias included, and the Laplace "
    "approximation q(w) = N(w_MAP, S_N) to its posterior (Bishop 4.4, 4.5.1). The fit is then w_MAP (α replaces "
    "l2); the layers Predictive, Predictive variance and Boundary samples show what the uncertainty does.",
    cli=False)
ALPHA = ParamSpec(
    "alpha", "Prior precision α", "float", DEFAULT_ALPHA,
    "The precision α of the prior N(w|0, α⁻¹I) of the Bayesian view (Bishop eq. 4.140): small α, a broad prior "
    "and wide predictive bands; \"Choose α by the evidence\" sets the α that maximises ln p(D|α) (eq. 4.137).",
    minimum=1e-6, maximum=1e6, log_scale=True, cli=False)
STANDARDIZE = ParamSpec(
    "standardize", "Standardize features", "bool", DEFAULT_STANDARDIZE,
    "Fit on features scaled to unit variance, so l2 means the same on any data scale; "
    "weights are reported in the original units. No effect on the rbf basis (each φ_m is between 0 and 1).")

GROUPS = ParamSpec(
    "groups", "Classes sharing a covariance", "text", "",
    "Groups of classes that share one covariance, by class name: groups separated by ';', classes by ',' "
    "(red,green;blue). A class not named has its own. All the classes in one group is LDA; none grouped is QDA.",
    validate=parse_groups)

SCHEME = ParamSpec(
    "scheme", "Multiclass scheme", "choice", "k-class",
    "How K classes are decided from linear discriminants (Bishop 4.1.2): k-class takes the largest y_k; "
    "one-vs-rest asks each class against the rest (y_k > 1/2); one-vs-one fits every pair and takes a vote. "
    "The last two leave regions undecided (hatched).",
    choices=SCHEMES)

_MODELS = (
    ModelInfo("lda", LDA,
              "Gaussian classes sharing one covariance: linear boundaries (Bishop 4.2.1, eqs. 4.68-4.70; fitted by maximum likelihood, 4.2.2).",
              (REG_COVAR,)),
    ModelInfo("qda", QDA,
              "Gaussian classes, each with its own covariance: quadratic boundaries (Bishop 4.2.1).",
              (REG_COVAR,)),
    ModelInfo("tied", TiedCovariance,
              "Gaussian classes sharing a covariance within groups (pooled by maximum likelihood over each group): "
              "lines between classes of a group, quadratic curves between groups (Bishop 4.2.1-4.2.2).",
              (GROUPS, REG_COVAR)),
    ModelInfo("nb", GaussianNB,
              "Features independent given the class: axis-aligned Gaussians (naive Bayes, Bishop 4.2.3).",
              (REG_COVAR,)),
    ModelInfo("logistic", LogisticRegression,
              "p(C1|x) = σ(wᵀφ(x) + w0), fitted by IRLS (Bishop 4.3.2-4.3.3); one-vs-rest for more classes.",
              (L2, BASIS, STANDARDIZE, BAYES, ALPHA, CENTERS, WIDTH)),
    ModelInfo("softmax", SoftmaxRegression,
              "p(Ck|x) = softmax(w_kᵀφ(x) + w_k0), fitted by Newton's method (Bishop 4.3.4).",
              (L2, BASIS, STANDARDIZE, CENTERS, WIDTH)),
    ModelInfo("probit", ProbitRegression,
              "p(C1|x) = Φ(wᵀφ(x) + w0), Φ the standard normal's distribution function (Bishop 4.3.5, "
              "eq. 4.114), fitted by Newton's method; one-vs-rest for more classes.",
              (L2, BASIS, STANDARDIZE, CENTERS, WIDTH)),
    ModelInfo("leastsquares", LeastSquares,
              "y_k(x) = w_kᵀx + w_k0 fitted to 1-of-K targets in closed form, W = Φ⁺T (Bishop 4.1.3, eq. 4.16); "
              "no probabilities, and with three classes in a line the middle one is masked.",
              (SCHEME,)),
    ModelInfo("fisher", Fisher,
              "Two classes: the direction w ∝ S_W⁻¹(m₂ - m₁) that separates the projected means best "
              "relative to the within-class scatter (Bishop 4.1.4, eq. 4.30); no probabilities."),
    ModelInfo("perceptron", Perceptron,
              "Two classes: w ← w + η φ_n t_n on each misclassified point, from w = 0 (Bishop 4.1.7, "
              "eq. 4.55); settles only when a line separates the classes; no probabilities."),
)

REGISTRY: dict[str, ModelInfo] = {m.name: m for m in _MODELS}
MODEL_NAMES: tuple[str, ...] = tuple(REGISTRY)
#: the models that give p(C_k|x): Bishop 4.2 and 4.3
PROBABILISTIC_NAMES: tuple[str, ...] = tuple(m.name for m in _MODELS if m.probabilistic)


def info(name: str) -> ModelInfo:
    try:
        return REGISTRY[name]
    except (KeyError, TypeError):
        raise ValueError(f"unknown model {name!r}; choose one of {', '.join(MODEL_NAMES)}") from None


def create(name: str, **params):
    """A new, unfitted model by name: ``create("qda", reg_covar=0.0).fit(X, y)``; parameters not
    given take the registry's defaults."""
    return info(name).cls(**{**info(name).defaults(), **params})


def parameter_count(name: str, K: int, basis: str = "linear", M: int = 2) -> int:
    """Free parameters of model ``name`` for K classes in M dimensions (Bishop 4.2-4.3's comparison):
    shared covariance (K - 1) + K M + M (M + 1) / 2, own covariances K M (M + 1) / 2 instead,
    naive Bayes K M variances; logistic M + 1 for two classes (K (M + 1) one-vs-rest), softmax
    (K - 1)(M + 1). With a basis, M is its size."""
    return info(name).cls.count_parameters(K, basis, M)
