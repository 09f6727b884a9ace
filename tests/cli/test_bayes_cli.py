"""`probviz fit --model logistic --bayes [--alpha A | evidence] [--query ...] --json`, and `--model probit`,
checked against Bishop's formulas written out here with numpy and scipy (sections 4.3.5, 4.4, 4.5)."""

import json

import numpy as np
import pytest
from scipy.integrate import quad
from scipy.optimize import minimize
from scipy.special import expit, log_expit, log_ndtr, ndtr
from scipy.stats import norm

from probviz import cli
from probviz.data import examples


def run(capsys, *argv):
    code = cli.main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def fit_json(capsys, *argv):
    code, out, err = run(capsys, "fit", *argv, "--json")
    assert code == 0, err
    return json.loads(out)


def _neg_log_posterior(Phi, t, alpha):
    s = 2.0 * t - 1.0

    def f(w):
        a = Phi @ w
        y = expit(a)
        return -np.sum(log_expit(s * a)) + 0.5 * alpha * w @ w, Phi.T @ (y - t) + alpha * w
    return f


def _fruit():
    s = examples.session("fruit")
    return s.dataset.X, (s.dataset.labels == 1).astype(float)


@pytest.mark.parametrize("alpha", [1.0, 0.01, 30.0])
def test_the_laplace_posterior_is_bishops_on_the_reported_features(capsys, alpha):
    """w_MAP minimises the negative log posterior of eq. 4.142 with the prior on every weight (a generic
    optimiser agrees), S_N is the inverse of eq. 4.143's alpha I + sum y (1 - y) phi phi^T, and the evidence
    is eq. 4.137 written out, all on the features the JSON names (center and scale, the bias first)."""
    b = fit_json(capsys, "example:fruit", "--model", "logistic", "--bayes", "--alpha", str(alpha))["bayes"]
    X, t = _fruit()
    assert b["alpha"] == alpha and b["alpha_from"] == "given" and b["positive_class"] == "peach"
    Z = (X - np.array(b["center"])) / np.array(b["scale"])
    np.testing.assert_allclose(b["center"], X.mean(axis=0), rtol=1e-12)
    np.testing.assert_allclose(b["scale"], X.std(axis=0), rtol=1e-12)
    Phi = np.column_stack([np.ones(len(X)), Z])
    f = _neg_log_posterior(Phi, t, alpha)
    ref = minimize(f, np.zeros(3), jac=True, method="BFGS", options={"gtol": 1e-10}).x
    w = np.array(b["w_map"])
    np.testing.assert_allclose(w, ref, atol=1e-7)
    assert np.max(np.abs(f(w)[1])) < 1e-8 * len(X)  # the gradient condition at the reported mode
    y = expit(Phi @ w)
    H = alpha * np.eye(3) + (Phi * (y * (1 - y))[:, None]).T @ Phi
    np.testing.assert_allclose(b["posterior_cov"], np.linalg.inv(H), rtol=1e-9)
    log_lik = float(np.sum(log_expit((2 * t - 1) * (Phi @ w))))
    log_ev = log_lik + 1.5 * np.log(alpha) - 0.5 * alpha * w @ w - 0.5 * np.linalg.slogdet(H)[1]
    assert b["log_evidence"] == pytest.approx(log_ev, abs=1e-8)
    assert b["bic"] == pytest.approx(log_lik - 1.5 * np.log(len(X)), abs=1e-8)
    lam = np.linalg.eigvalsh(H - alpha * np.eye(3))
    assert b["effective_parameters"] == pytest.approx(np.sum(lam / (lam + alpha)), rel=1e-9)


@pytest.mark.parametrize("alpha", [0.05, 30.0])
def test_training_steps_with_bayes_go_to_bishops_w_map(capsys, alpha):
    """``fit --bayes --alpha A --optimizer``: refused before, though the window trains toward w_MAP with the
    Bayesian view ticked. Each gradient step is w - eta * grad of eq. 4.142's negative log posterior (the
    prior on every weight, the bias too), written out here; Newton's steps end at its minimum (a generic
    optimiser agrees), and the text names the prior."""
    X, t = _fruit()
    argv = ("example:fruit", "--model", "logistic", "--bayes", "--alpha", str(alpha))
    out = fit_json(capsys, *argv, "--optimizer", "gd", "--eta", "0.002", "--steps", "3")
    Phi = np.column_stack([np.ones(len(X)), (X - np.array(out["center"])) / np.array(out["scale"])])
    f = _neg_log_posterior(Phi, t, alpha)
    w = np.zeros(3)
    for _ in range(3):
        w = w - 0.002 * f(w)[1]
    np.testing.assert_allclose(out["weights"][0], w, rtol=1e-10, atol=1e-12)
    assert out["error"] == pytest.approx(f(w)[0], rel=1e-10)
    out = fit_json(capsys, *argv, "--optimizer", "newton", "--steps", "40")
    ref = minimize(f, np.zeros(3), jac=True, method="BFGS", options={"gtol": 1e-10}).x
    np.testing.assert_allclose(out["weights"][0], ref, atol=1e-7)
    assert out["optimum_error"] == pytest.approx(f(ref)[0], rel=1e-10)
    code, text, err = run(capsys, "fit", *argv, "--optimizer", "newton", "--steps", "40")
    assert code == 0, err
    assert text.startswith(f"Logistic regression, Bayesian, α = {alpha:g}, Newton / IRLS, 40 steps from w = 0")


def test_the_predictive_distribution_at_query_points(capsys):
    """mu_a = w^T phi, sigma_a^2 = phi^T S_N phi (eqs. 4.149-4.150) from the reported w_MAP and S_N, the
    moderated sigma(kappa mu_a) (eq. 4.155) and the exact integral of eq. 4.151 by scipy's quad; the
    predictive probability widens towards 1/2 away from the data while the plug-in one does not."""
    out = fit_json(capsys, "example:fruit", "--model", "logistic", "--bayes", "--query", "2.3,1.5;1,1;12,-9")
    b, rows = out["bayes"], out["query"]
    w, S = np.array(b["w_map"]), np.array(b["posterior_cov"])
    assert [r["x"] for r in rows] == [[2.3, 1.5], [1.0, 1.0], [12.0, -9.0]]
    for r in rows:
        z = (np.array(r["x"]) - b["center"]) / np.array(b["scale"])
        phi = np.r_[1.0, z]
        mu, s2 = phi @ w, phi @ S @ phi
        assert r["mu_a"] == pytest.approx(mu, abs=1e-9) and r["sigma2_a"] == pytest.approx(s2, rel=1e-9)
        assert r["p_map"][1] == pytest.approx(expit(mu), rel=1e-9)
        assert r["p_moderated"][1] == pytest.approx(expit(mu / np.sqrt(1 + np.pi * s2 / 8)), rel=1e-9)
        sd = np.sqrt(s2)
        exact = quad(lambda a: expit(a) * norm.pdf(a, mu, sd), mu - 12 * sd, mu + 12 * sd, epsabs=1e-14,
                     limit=200)[0]
        assert r["p_exact"][1] == pytest.approx(exact, abs=1e-9)
        assert sum(r["p_exact"]) == pytest.approx(1.0) and sum(r["p_moderated"]) == pytest.approx(1.0)
    far, near = rows[2], rows[1]
    assert far["sigma2_a"] > 50 * near["sigma2_a"]
    assert abs(far["p_moderated"][1] - 0.5) < abs(far["p_map"][1] - 0.5)  # moderated towards 1/2


def test_alpha_chosen_by_the_evidence_beats_the_alphas_around_it(capsys):
    best = fit_json(capsys, "example:fruit", "--model", "logistic", "--bayes", "--alpha", "evidence")["bayes"]
    assert best["alpha_from"] == "evidence"
    for factor in (0.5, 0.99, 1.01, 2.0):
        other = fit_json(capsys, "example:fruit", "--model", "logistic", "--bayes", "--alpha",
                         repr(best["alpha"] * factor))["bayes"]
        assert other["log_evidence"] <= best["log_evidence"] + 1e-9
    by_basis = best["evidence_by_basis"]
    assert set(by_basis) == {"linear", "quadratic", "cubic"}
    assert by_basis["linear"]["log_evidence"] == pytest.approx(best["log_evidence"])
    # the fruit's classes share a covariance: the data support the linear basis (Bishop 4.2.1)
    assert by_basis["linear"]["log_evidence"] > max(by_basis["quadratic"]["log_evidence"],
                                                   by_basis["cubic"]["log_evidence"])


def test_three_classes_are_three_one_vs_rest_posteriors(tmp_path, capsys):
    rng = np.random.default_rng(2)
    X = np.vstack([rng.normal(c, 0.8, (6, 2)) for c in ((0, 0), (3, 0), (0, 3))])
    lines = ["x,y,label"] + [f"{a},{b},{'abc'[k]}" for (a, b), k in zip(X, np.repeat([0, 1, 2], 6))]
    path = tmp_path / "three.csv"
    path.write_text("\n".join(lines) + "\n")
    out = fit_json(capsys, str(path), "--model", "logistic", "--bayes", "--alpha", "2", "--query", "1,1")
    b = out["bayes"]
    assert b["problems"] == ["a against the rest", "b against the rest", "c against the rest"]
    assert np.array(b["w_map"]).shape == (3, 3) and np.array(b["posterior_cov"]).shape == (3, 3, 3)
    Phi = np.column_stack([np.ones(len(X)), (X - b["center"]) / np.array(b["scale"])])
    for k in range(3):
        t = (np.repeat([0, 1, 2], 6) == k).astype(float)
        ref = minimize(_neg_log_posterior(Phi, t, 2.0), np.zeros(3), jac=True, method="BFGS",
                       options={"gtol": 1e-10}).x
        np.testing.assert_allclose(b["w_map"][k], ref, atol=1e-7)
    assert b["log_evidence"] == pytest.approx(sum(b["log_evidence_each"]))
    [row] = out["query"]
    assert len(row["mu_a"]) == 3 and sum(row["p_exact"]) == pytest.approx(1.0)


def test_query_without_bayes_gives_the_plug_in_posterior_of_any_model(capsys):
    out = fit_json(capsys, "example:fruit", "--model", "lda", "--query", "2.3,1.5")
    [row] = out["query"]
    assert row["p_map"][0] == pytest.approx(0.823, abs=5e-4)  # Bishop's fruit: p(apple|x) = 0.823
    assert "p_moderated" not in row


def test_probit_regression_from_the_command_line(capsys):
    """`--model probit`: Phi(w^T x + w0) at the optimum of its penalised cross-entropy (a generic optimiser)."""
    out = fit_json(capsys, "example:fruit", "--model", "probit")
    X, t = _fruit()
    Z = (X - X.mean(axis=0)) / X.std(axis=0)
    Phi = np.column_stack([np.ones(len(X)), Z])
    s = 2 * t - 1

    def f(w):
        a = s * (Phi @ w)
        r = np.exp(norm.logpdf(a) - log_ndtr(a))
        return -np.sum(log_ndtr(a)) + 0.005 * w[1:] @ w[1:], -(s * r) @ Phi + 0.01 * np.r_[0, w[1:]]
    ref = minimize(f, np.zeros(3), jac=True, method="BFGS", options={"gtol": 1e-10}).x
    a = X @ np.array(out["coef"][0]) + out["intercept"][0]
    np.testing.assert_allclose(ndtr(a), ndtr(Phi @ ref), atol=1e-7)
    assert out["converged"] and out["log_likelihood"] == pytest.approx(-f(ref)[0] + 0.005 * ref[1:] @ ref[1:], abs=1e-6)


@pytest.mark.parametrize("argv, message", [
    (["--bayes"], "--bayes is the Bayesian view of logistic regression: add --model logistic (the model is lda)"),
    (["--model", "logistic", "--alpha", "2"], "--alpha needs --bayes"),
    (["--model", "logistic", "--bayes", "--alpha", "-1"], "--alpha must be a positive number or 'evidence', got '-1'"),
    (["--model", "logistic", "--bayes", "--alpha", "lots"], "--alpha must be a positive number or 'evidence'"),
    (["--model", "logistic", "--query", "1,2;3"], "--query point 2 must be 'x,y' (two numbers), got '3'"),
    (["--model", "logistic", "--query", "1,nan"], "--query point 1 must be finite"),
    (["--model", "logistic", "--bayes", "--query", "0,0;1e160,1e160"], "--query point 2 is out of range"),
    (["--model", "fisher", "--query", "1,2"], "gives no p(C_k|x)"),
    (["--model", "logistic", "--query", "1,2", "--optimizer", "gd"], "--query does not combine with --optimizer: --query reports the fitted model's "
     "p(C_k|x), --optimizer the steps of a training run; run fit once for each"),
])
def test_bad_bayes_arguments_get_one_clear_line(capsys, argv, message):
    code, out, err = run(capsys, "fit", "example:fruit", *argv)
    assert code == 2 and out == ""
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


def test_the_text_output_says_the_same_numbers_as_the_json(capsys):
    """Without --json: the Parameters lines (alpha, the evidence, BIC), the bases' evidence, how alpha was
    chosen, and one line per query point, each number as the JSON gives it."""
    argv = ("fit", "example:fruit", "--model", "logistic", "--bayes", "--alpha", "evidence", "--query", "2.3,1.5;-1,4")
    out = fit_json(capsys, *argv[1:])
    code, text, err = run(capsys, *argv)
    assert code == 0, err
    b = out["bayes"]
    assert f"α = {b['alpha']:.4g};  ln p(D|α) ≈ {b['log_evidence']:.4f} (eq. 4.137)" in text
    assert f"BIC {b['bic']:.4f} (eq. 4.139);  effective parameters γ = {b['effective_parameters']:.3f} of 3" in text
    assert "α chosen by the evidence: its maximum over α" in text
    bases = b["evidence_by_basis"]
    assert "evidence by basis: " + ", ".join(f"{n} {v['log_evidence']:.2f} (α {v['alpha']:.3g})"
                                             for n, v in bases.items()) in text
    for r in out["query"]:
        line = next(t for t in text.splitlines() if t.strip().startswith(f"x = ({r['x'][0]:.6g}, {r['x'][1]:.6g})"))
        assert f"p_MAP p(apple|x) = {r['p_map'][0]:.6g}, p(peach|x) = {r['p_map'][1]:.6g}" in line
        assert f"moderated p(apple|x) = {r['p_moderated'][0]:.6g}" in line
        assert f"exact p(apple|x) = {r['p_exact'][0]:.6g}" in line
        assert f"μ_a {r['mu_a']:.6g}, σ_a² {r['sigma2_a']:.6g}" in line
