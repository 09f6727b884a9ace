"""The classifiers of Bishop (2006), chapter 4, in pure numpy/scipy (no Qt): seven probabilistic
models and three discriminant functions."""

from probviz.models.base import Classifier
from probviz.models.gaussian import LDA, QDA, GaussianClassifier, GaussianNB, TiedCovariance
from probviz.models.logistic import LogisticRegression, SoftmaxRegression
from probviz.models.probit import ProbitRegression
from probviz.models.discriminant import Fisher, LeastSquares, Perceptron
from probviz.models.registry import MODEL_NAMES, PROBABILISTIC_NAMES, REGISTRY, ModelInfo, ParamSpec, create, info, parameter_count

__all__ = [
    "Classifier", "GaussianClassifier", "LDA", "QDA", "TiedCovariance", "GaussianNB", "LogisticRegression",
    "SoftmaxRegression", "ProbitRegression", "LeastSquares", "Fisher", "Perceptron", "MODEL_NAMES", "PROBABILISTIC_NAMES", "REGISTRY", "ModelInfo", "ParamSpec", "create", "info", "parameter_count",
]
