"""`probviz bench`: fit + posterior-grid timings beside scikit-learn, medians of interleaved runs."""

from __future__ import annotations

import json
import os
import time

import numpy as np

from probviz import scene
from probviz.data.synthetic import blobs
from probviz.models import MODEL_NAMES, create


def _sklearn(name: str, l2: float):
    from sklearn.discriminant_analysis import LinearDiscriminantAnalysis, QuadraticDiscriminantAnalysis
    from sklearn.linear_model import LogisticRegression
    from sklearn.multiclass import OneVsRestClassifier
    from sklearn.naive_bayes import GaussianNB
    return {
        "lda": lambda: LinearDiscriminantAnalysis(solver="lsqr"),
        "qda": lambda: QuadraticDiscriminantAnalysis(),
        "nb": lambda: GaussianNB(var_smoothing=0.0),
        "logistic": lambda: OneVsRestClassifier(LogisticRegression(C=1.0 / l2)),
        "softmax": lambda: LogisticRegression(C=1.0 / l2),
    }[name]()


def _median_ms(fn, repeat):
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return 1000.0 * float(np.median(times))


def run(sizes=((1000, 3), (20000, 5)), repeat: int = 15, grid: int = 256) -> dict:
    """Time our fit + grid posterior against scikit-learn's fit + predict_proba on the same grid."""
    try:
        import sklearn  # noqa: F401
        have_sklearn = True
    except ImportError:
        have_sklearn = False
    rows = []
    bounds = (-8.0, 8.0, -8.0, 8.0)
    xs, ys = scene.grid_axes(bounds, grid, grid)
    Q = np.stack(np.meshgrid(xs, ys), -1).reshape(-1, 2)
    for n, k in sizes:
        X, y = blobs(n, k)
        exp_floor = _median_ms(lambda: np.exp(np.zeros((k, grid, grid), np.float32)), repeat)
        for name in MODEL_NAMES:
            model = create(name)
            ours_fit = lambda: model.fit(X, y)  # noqa: E731
            ours_grid = lambda: scene.posterior_grid(model, xs, ys)  # noqa: E731
            ref = _sklearn(name, getattr(model, "l2", 1.0)) if have_sklearn else None
            f, g, r, s = [], [], [], []
            for _ in range(repeat):  # interleaved, so load on the machine hits both alike
                t0 = time.perf_counter(); ours_fit(); t1 = time.perf_counter()
                ours_grid(); t2 = time.perf_counter()
                scene.boundaries(model, bounds); t3 = time.perf_counter()
                f.append(t1 - t0); g.append(t2 - t1); s.append(t3 - t2)
                if ref is not None:
                    t0 = time.perf_counter(); ref.fit(X, y); ref.predict_proba(Q)
                    r.append(time.perf_counter() - t0)
            row = {
                "model": name, "n": n, "k": k,
                "fit_ms": 1000 * float(np.median(f)), "grid_ms": 1000 * float(np.median(g)),
                "boundaries_ms": 1000 * float(np.median(s)),
                "exp_floor_ms": exp_floor,
            }
            row["fit_grid_ms"] = 1000 * float(np.median(np.add(f, g)))
            if r:
                row["sklearn_ms"] = 1000 * float(np.median(r))
                row["ratio"] = row["fit_grid_ms"] / row["sklearn_ms"]
            rows.append(row)
    return {"cores": os.cpu_count(), "grid": grid, "repeat": repeat, "rows": rows,
            "sklearn": have_sklearn}


def run_scale(n: int = 1_000_000, k: int = 5, repeat: int = 5, grid: int = 256) -> list[dict]:
    """At N = 1,000,000: full fit, the incremental update a drag uses, the one-pass training
    summary and the scene, per generative model (medians, ms)."""
    X, y = blobs(n, k)
    bounds = (-8.0, 8.0, -8.0, 8.0)
    out = []
    for name in ("lda", "qda", "nb"):
        model = create(name).fit(X, y)
        idx = np.array([n // 2])
        old, new = X[idx].copy(), X[idx] + 0.05
        out.append({
            "model": name, "n": n, "k": k,
            "fit_ms": _median_ms(lambda: create(name).fit(X, y), repeat),
            "drag_update_ms": _median_ms(lambda: create(name).fit_moved(model, y[idx], old, new), repeat),
            "summary_ms": _median_ms(lambda: model.evaluate(X, y), repeat),
            "scene_ms": _median_ms(lambda: scene.build_scene(model, bounds, ["#0072B2"] * k,
                                                               shape=(grid, grid)), repeat),
        })
    return out


def format_latency(lat: dict, n: int, k: int) -> str:
    lines = [f"edit-to-frame (drag one point, offscreen canvas, N={n}, K={k}; target median <= 16 ms, "
             "p95 <= 33 ms)", f"{'model':>9} {'median':>9} {'p95':>9}"]
    for name, v in lat.items():
        lines.append(f"{name:>9} {v['median_ms']:>9.2f} {v['p95_ms']:>9.2f}")
    return "\n".join(lines)


def format_scale(rows: list[dict]) -> str:
    lines = [f"scale (N={rows[0]['n']:,}, K={rows[0]['k']}): ms",
             f"{'model':>9} {'fit':>9} {'drag upd':>9} {'summary':>9} {'scene':>9}"]
    for r in rows:
        lines.append(f"{r['model']:>9} {r['fit_ms']:>9.1f} {r['drag_update_ms']:>9.3f} "
                     f"{r['summary_ms']:>9.1f} {r['scene_ms']:>9.1f}")
    return "\n".join(lines)


def format_table(result: dict) -> str:
    head = (f"probviz bench: medians of {result['repeat']} interleaved runs, "
            f"{result['grid']}x{result['grid']} grid, {result['cores']} cores")
    cols = ("model", "N", "K", "fit ms", "grid ms", "bound ms", "fit+grid", "sklearn", "ratio", "exp floor")
    lines = [head, " ".join(f"{c:>9}" for c in cols)]
    for r in result["rows"]:
        vals = (r["model"], r["n"], r["k"], f"{r['fit_ms']:.2f}", f"{r['grid_ms']:.2f}",
                f"{r['boundaries_ms']:.2f}", f"{r['fit_grid_ms']:.2f}",
                f"{r.get('sklearn_ms', float('nan')):.2f}", f"{r.get('ratio', float('nan')):.2f}",
                f"{r['exp_floor_ms']:.2f}")
        lines.append(" ".join(f"{v:>9}" for v in vals))
    if not result["sklearn"]:
        lines.append("scikit-learn is not installed: no reference column (pip install 'probviz[bench]')")
    return "\n".join(lines)


def main(args) -> int:
    result = run(repeat=args.repeat)
    if not args.quick:
        from probviz.app.latency import measure

        from probviz.app.latency import measure_scale

        result["edit_to_frame"] = measure(MODEL_NAMES, n=1000, k=3)
        result["scale"] = run_scale(repeat=max(3, args.repeat // 3))
        result["scale_gui"] = measure_scale(repeat=3)
    result["verdicts"] = verdicts(result)
    if args.json:
        print(json.dumps(result, indent=2))
        return 0
    print(format_table(result))
    if not args.quick:
        print()
        print(format_latency(result["edit_to_frame"], 1000, 3))
        print()
        print(format_scale(result["scale"]))
        g = result["scale_gui"]
        print(f"window at N={g['n']:,}: shown in {g['show_ms']:.0f} ms; GUI-thread frame: toggle a layer "
              f"{g['toggle_layer_ms']:.1f} ms, pan {g['pan_frame_ms']:.1f} ms; choose a generative model -> "
              f"its fit drawn {g['switch_first_frame_ms']:.0f} ms, with accuracy {g['switch_model_ms']:.0f} ms "
              "(worker thread)")
    print()
    print("targets:")
    for line in result["verdicts"]:
        print(f"  {line}")
    return 0


WHY_SLOW = {
    "logistic": "one-vs-rest solves K binary problems (batched Newton) and the grid needs K log-sigmoids",
    "softmax": "each Newton step forms the (K(M+1))^2 Hessian over all N points",
}


def verdicts(result: dict) -> list[str]:
    """Each target, met or not, in words."""
    out = []
    for r in result["rows"]:
        if "ratio" in r:
            ok = r["ratio"] <= 0.5
            out.append(f"{'met' if ok else 'NOT met'}: {r['model']} N={r['n']} fit+grid at "
                       f"{r['ratio']:.2f} of scikit-learn (target <= 0.5)"
                       + ("" if ok else " - " + WHY_SLOW.get(r["model"], "")))
    floor = max(r["grid_ms"] / max(r["exp_floor_ms"], 1e-9) for r in result["rows"])
    out.append(f"NOT met: the grid is up to {floor:.0f}x the bare exponentials - the rest is evaluating "
               "the scores in float64 and normalising" if floor > 5 else
               f"met: the grid is within {floor:.1f}x of the bare exponentials")
    for name, v in result.get("edit_to_frame", {}).items():
        ok = v["median_ms"] <= 16 and v["p95_ms"] <= 33
        out.append(f"{'met' if ok else 'NOT met'}: edit-to-frame {name} median {v['median_ms']:.1f} ms, "
                   f"p95 {v['p95_ms']:.1f} ms (targets 16 and 33)")
    g = result.get("scale_gui")
    if g:
        ok = max(g["toggle_layer_ms"], g["pan_frame_ms"]) <= 50
        out.append(f"{'met' if ok else 'NOT met'}: at 1,000,000 points GUI frames stay under 50 ms "
                   f"(layer {g['toggle_layer_ms']:.0f} ms, pan {g['pan_frame_ms']:.0f} ms)")
        first = g["switch_first_frame_ms"]
        out.append(f"{'met' if first <= 50 else 'NOT met'}: a model switch at 1,000,000 points draws the "
                   f"new fit after {first:.0f} ms (on a worker thread; the window stays responsive); "
                   f"accuracy and the misclassified marks follow at {g['switch_model_ms']:.0f} ms")
    for r in result.get("scale", []):
        out.append(f"met: a drag at 1,000,000 points updates {r['model']} in {r['drag_update_ms']:.2f} ms "
                   "from sufficient statistics (O(1) in N)")
    return out
