"""The layers a figure can show: one vocabulary for the window, the panel, export and the CLI."""

from __future__ import annotations

LAYERS = ("heatmap", "decision", "boundaries", "ellipses", "density", "truth", "points", "predictive", "variance",
          "samples", "miscalibration")
DEFAULT_LAYERS = frozenset({"heatmap", "boundaries", "ellipses", "points"})

#: (label, tooltip) of each layer
LAYER_LABELS = {
    "heatmap": ("Posterior heatmap", "Inference: p(C_k|x), each class's colour fading where the posterior is uncertain"),
    "decision": ("Decision regions", "Decision: argmax_k p(C_k|x) in flat colours; grey where max p < θ (reject)"),
    "boundaries": ("Decision boundaries", "Where the two most probable classes are equally probable"),
    "ellipses": ("Covariance ellipses",
                 "Mahalanobis radius 1, 2 and 3 of each p(x|C_k), holding 39%, 86% and 99% of a 2-D "
                 "Gaussian's mass, with the means"),
    "density": ("Density contours", "Lines of equal p(x|C_k), at the same levels for every class"),
    "truth": ("True model", "The model the points were drawn from, when it is known: its Bayes-optimal boundary "
                            "(dashed) and each Gaussian's 2σ ellipse (dotted)"),
    "points": ("Points", "The data; a cross marks points the model misclassifies"),
    "predictive": ("Predictive p(C_k|x,D)",
                   "Bayesian view: the heatmap shows the predictive distribution σ(κ(σ_a²) μ_a) (Bishop eq. 4.155), "
                   "which moves towards 1/2 away from the data, instead of the plug-in σ(w_MAPᵀφ)"),
    "variance": ("Predictive variance", "Bayesian view: a grey veil that thickens with σ_a² = φᵀS_Nφ (Bishop eq. 4.150), "
                                        "the uncertainty of the activation: half its strength at σ_a = 2"),
    "samples": ("Boundary samples", "Bayesian view: the boundaries of weights drawn from the posterior q(w) "
                                    "(Laplace, Bishop 4.4), thin under the w_MAP boundary"),
    "miscalibration": ("Error against the truth",
                       "Where the fitted p(C_k|x) is wrong: |fitted p(C_k|x) − true p(C_k|x)|, the largest over the classes, "
                       "from the background (0) to the darkest shade (0.5 or more), drawn instead of the heatmap. "
                       "Needs a true model (example:fruit, example:xor, or the Lab's truth)"),
}

#: layers that need a true model (one class per class of the points): they draw it, or compare the fit with it
TRUTH_ONLY = frozenset({"truth", "miscalibration"})

#: layers that need the Bayesian view (logistic regression with its Laplace posterior)
BAYESIAN_ONLY = frozenset({"predictive", "variance", "samples"})

#: layers that need class-conditional densities p(x|C_k): generative models only
GENERATIVE_ONLY = frozenset({"ellipses", "density"})

#: what the L key steps through: one stage of the story at a time
LAYER_SETS = (
    ("posterior", frozenset({"heatmap", "boundaries", "ellipses", "points"})),
    ("inference: p(C_k|x) only", frozenset({"heatmap", "points"})),
    ("decision: argmax regions", frozenset({"decision", "boundaries", "points"})),
    ("class-conditionals p(x|C_k)", frozenset({"ellipses", "density", "points"})),
)


def parse_layers(text: str) -> frozenset:
    """A comma-separated list of layer names; ValueError naming the first unknown one."""
    layers = [s.strip() for s in text.split(",") if s.strip()]
    unknown = [s for s in layers if s not in LAYERS]
    if unknown:
        raise ValueError(f"unknown layer {unknown[0]!r}; choose from {', '.join(LAYERS)}")
    return frozenset(layers)

#: The reject threshold's largest value: at 1 every point would be rejected (max_k p(C_k|x) < 1
#: wherever two classes overlap at all), which is no decision rule.
THETA_MAX = 0.99
#: The Bayesian view's boundary cloud: how many weight vectors are drawn from q(w) (at most), and the seed
SAMPLES, SAMPLES_SEED, MAX_SAMPLES = 30, 0, 1000
