"""Model names, labels and parameter specifications: the GUI's forms and the CLI's flags read these."""

from __future__ import annotations

from dataclasses import dataclass, field

from probviz.models.gaussian import LDA, QDA, GaussianNB
from probviz.models.logistic import BASES, DEFAULT_L2, LogisticRegression, SoftmaxRegression


@dataclass(frozen=True)
class ParamSpec:
    """One model parameter: how to show it and which values it takes."""

    name: str
    label: str
    kind: str  # "float", "choice", "bool"
    default: object
    help: str
    minimum: float | None = None
    maximum: float | None = None
    choices: tuple = ()
    log_scale: bool = False


@dataclass(frozen=True)
class ModelInfo:
    name: str
    cls: type
    label: str
    description: str
    params: tuple[ParamSpec, ...] = field(default_factory=tuple)

    @property
    def generative(self) -> bool:
        return self.cls.generative


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
    "basis", "Basis functions φ(x)", "choice", "linear",
    "linear: x1, x2; quadratic adds x1², x1·x2, x2²; cubic adds the third-order terms.",
    choices=tuple(BASES))
STANDARDIZE = ParamSpec(
    "standardize", "Standardize features", "bool", False,
    "Fit on features scaled to unit variance, so l2 means the same on any data scale; "
    "weights are reported in the original units.")

_MODELS = (
    ModelInfo("lda", LDA, "LDA (shared covariance)",
              "Gaussian classes sharing one covariance: linear boundaries (000 eqs. 12-14).", (REG_COVAR,)),
    ModelInfo("qda", QDA, "QDA (own covariances)",
              "Gaussian classes, each with its own covariance: quadratic boundaries.", (REG_COVAR,)),
    ModelInfo("nb", GaussianNB, "Gaussian naive Bayes",
              "Features independent given the class: axis-aligned Gaussians (003).", (REG_COVAR,)),
    ModelInfo("logistic", LogisticRegression, "Logistic regression",
              "p(C1|x) = σ(wᵀφ(x) + w0), fitted by IRLS; one-vs-rest for more classes (004).",
              (L2, BASIS, STANDARDIZE)),
    ModelInfo("softmax", SoftmaxRegression, "Softmax regression",
              "p(Ck|x) = softmax(w_kᵀφ(x) + w_k0), fitted by Newton's method (004).",
              (L2, BASIS, STANDARDIZE)),
)

REGISTRY: dict[str, ModelInfo] = {m.name: m for m in _MODELS}
MODEL_NAMES: tuple[str, ...] = tuple(REGISTRY)


def info(name: str) -> ModelInfo:
    try:
        return REGISTRY[name]
    except KeyError:
        raise ValueError(f"unknown model {name!r}; choose one of {', '.join(MODEL_NAMES)}") from None


def create(name: str, **params):
    """A new, unfitted model by name: ``create("qda", reg_covar=0.0).fit(X, y)``."""
    return info(name).cls(**params)


def parameter_count(name: str, K: int, basis: str = "linear", M: int = 2) -> int:
    """Free parameters of model ``name`` for K classes in M dimensions (001's comparison).

    Gaussian, shared covariance: (K - 1) + K M + M (M + 1) / 2, i.e. 1 + 2M + M(M+1)/2 for K = 2;
    own covariances: K M (M + 1) / 2 instead; naive Bayes: K M variances; logistic: M + 1 for two
    classes (K (M + 1) one-vs-rest); softmax: (K - 1)(M + 1). With a basis, M is its size.
    """
    from probviz.models.logistic import BASES
    from probviz.models.poly import monomials

    if name in ("logistic", "softmax"):
        F = len(monomials(BASES[basis])) + 1
        if K < 2:
            return 0
        if name == "softmax":
            return (K - 1) * F
        return F if K == 2 else K * F
    cov = {"lda": M * (M + 1) // 2, "qda": K * M * (M + 1) // 2, "nb": K * M}[info(name).name]
    return (K - 1) + K * M + cov
