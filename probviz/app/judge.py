"""The ROC and calibration dialog: how good is the shown fit, really? (Bishop 1.5; issue "judge every decision
against the truth").

For one class against the rest it draws the fitted score's ROC on the training points, and with a true model
its ROC under the truth and the Bayes-optimal ROC (the true posterior's), each with its AUC, the decision's
operating point on each (the loss matrix's and theta's decision, as the canvas draws it), and the reliability
diagram of p(C|x): the fitted probabilities binned against the points' frequencies and against the true
posterior. Everything comes from :func:`probviz.decision.roc_report`: the points' part at once, the truth's
integrals (seconds) on a thread of their own while the dialog stays live. It shows the fit it was opened
on (or refreshed for): Refresh takes the window's current fit.

Below the plots, the decisions' confusion matrices (rows the truth, columns the decision): counts on the
training points and on the held-out points, and the expected proportions under the truth, with the expected
loss per point of each beside the truth's Bayes risk, and the Brier score under the truth (from
:func:`probviz.decision.fit_report`). With two classes the operating point on the training points' ROC can be
dragged: it snaps to the curve's corners, and the loss matrix that makes that decision (a threshold on the
log-odds, L_jc / L_cj = e^tau) is set on the document as one undo step, so the canvas's boundary moves with it.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt, QTimer
from typing import NamedTuple

from PySide6.QtWidgets import (
    QAbstractItemView, QComboBox, QDialog, QDialogButtonBox, QGroupBox, QHBoxLayout, QHeaderView, QLabel,
    QPushButton, QTableWidget, QTableWidgetItem, QVBoxLayout,
)

from shiboken6 import isValid

from probviz.app.widgets import SmallPlot, fit_on_screen
from probviz.colors import OKABE_ITO
from probviz.style import Style
from probviz.models.truth import Cancelled

CURVES = (("points", "on the points", OKABE_ITO[0], Qt.PenStyle.SolidLine),
          ("held", "held out", OKABE_ITO[2], Qt.PenStyle.DashDotLine),
          ("truth", "under the truth", OKABE_ITO[1], Qt.PenStyle.DashLine),
          ("bayes", "Bayes-optimal", "#555555", Qt.PenStyle.DotLine))


class Judged(NamedTuple):
    """What the dialog judges: the window's current fit, its training points, the truth, the decision."""

    model: object
    X: np.ndarray  # the training points
    labels: np.ndarray
    names: list
    truth: object = None
    loss: tuple | None = None  # None: the 0-1 loss
    reject_cost: float | None = None
    held: tuple | None = None  # (X, labels) of the points kept out of the fit, or None


def loss_for_corner(thresholds, i: int, c: int, limit: float) -> list | None:
    """The two-class loss matrix (rows the truth) whose decision (eq. 1.81) on the points is the i-th corner of
    their ROC (0: nothing decided c; ``thresholds`` the scores, log-odds of class c, running down as
    :func:`probviz.decision.roc_points` gives them): it chooses c where ln p(C_c|x) / p(C_other|x) > tau with
    tau = ln(L[other][c] / L[c][other]) strictly between the lowest score decided c and the next one. Of
    the two losses one is 1 and the other e^|tau|, with the fewest significant digits that keep tau in that
    gap (a 5, not 4.9731…); None when the gap lies beyond ``limit`` (log-odds beyond ln limit)."""
    t = np.asarray(thresholds, dtype=float)
    hi = t[i - 1] if 0 < i <= len(t) else np.inf  # the lowest score decided c must stay above tau
    lo = t[i] if i < len(t) else -np.inf  # the next one must not
    if not lo < hi:
        return None
    mid = (lo + hi) / 2 if np.isfinite(lo) and np.isfinite(hi) else (hi - 1.0 if np.isfinite(hi) else lo + 1.0)
    if not np.isfinite(mid):
        mid = 0.0
    for digits in range(1, 18):
        big = float(f"{np.exp(abs(mid)):.{digits}g}")
        tau = np.log(big) if mid >= 0 else -np.log(big)
        if lo < tau < hi:
            break
    else:
        return None
    if big > limit:
        return None
    a, b = (big, 1.0) if mid >= 0 else (1.0, big)  # a: choosing c when the truth is the other; b: the reverse
    L = [[0.0, 0.0], [0.0, 0.0]]
    L[1 - c][c], L[c][1 - c] = a, b
    return L


class JudgeDialog(QDialog):
    """``source()`` gives the :class:`Judged` of the window's current fit; ``decide(L, stroke)`` (when given)
    sets the document's loss matrix, the moves of one drag sharing ``stroke`` (one undo step), and
    ``new_stroke()`` starts one."""

    def __init__(self, source, parent=None, style=None, decide=None, new_stroke=None):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("ROC and calibration")
        self.source = source
        self.decide, self.new_stroke = decide, new_stroke
        self.result = None  # the last roc_report drawn whole (the truth's part included)
        self.decisions = None  # the last decision report drawn: {"train", "held", "truth"} of fit_report's
        self.target = None  # the draggable operating point (two classes)
        self._stroke = None  # while the operating point is dragged
        self._judged = None  # the Judged the plots show
        self._curve = None  # its ROC on the training points, which the operating point is dragged along
        self._snapping = False  # the mark is being put back on the curve (its own move, not the hand's)
        self._shown = None  # (roc_report, class name) drawn: the curve kind redraws it
        self._key = None  # what the shown numbers judge (the fit, its decision, its points): see follow()
        self._follow = QTimer(self)  # a moment after the canvas shows another fit or decision: judged anew
        self._follow.setSingleShot(True)
        self._follow.setInterval(400)
        self._follow.timeout.connect(self.refresh)
        self._job = None
        self._asked = 0
        self._closing = False
        lay = QVBoxLayout(self)
        row = QHBoxLayout()
        row.addWidget(QLabel("Class"))
        self.positive = QComboBox()
        self.positive.setToolTip("The class against the rest: the score is p(C|x), the ROC its true positive "
                                 "rate (points of C it decides C) against its false positive rate (other points "
                                 "it decides C) as the threshold moves")
        row.addWidget(self.positive, 1)
        self.refresh_button = QPushButton("Refresh")
        self.refresh_button.setToolTip("Judge the window's current fit (after edits)")
        self.refresh_button.clicked.connect(self.refresh)
        self.kind = QComboBox()
        self.kind.addItems(["ROC", "Precision–recall"])
        self.kind.setToolTip("ROC: true positive rate against false positive rate. Precision–recall: the share of "
                             "the points decided C that are C, against the share of C's points decided C (on the "
                             "points; under the truth from its prior p(C), exactly)")
        self.kind.currentIndexChanged.connect(lambda _i: self._redraw())
        row.addWidget(self.kind)
        row.addWidget(self.refresh_button)
        lay.addLayout(row)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.status)
        plots = QHBoxLayout()
        self.roc = SmallPlot(height=320)
        self.roc.setAspectLocked(True)
        self.roc.addLegend(offset=(-10, -10))  # bottom right: the curves hug the top left
        self.calibration = SmallPlot(height=320)
        self.calibration.setAspectLocked(True)
        self.calibration.setLabel("bottom", "fitted p(C|x), binned")
        self.calibration.setLabel("left", "frequency / true p(C|x)")
        self.calibration.addLegend(offset=(10, 10))
        for plot in (self.roc, self.calibration):
            plot.apply_style(style or Style())
        plots.addWidget(self.roc, 1)
        plots.addWidget(self.calibration, 1)
        lay.addLayout(plots, 1)
        explained = ("ROC (Bishop 1.5): solid on the training points, dash-dotted on the held-out ones, dashed under "
                     "the true model, dotted the Bayes-optimal one (the true posterior's, which no score beats); the "
                     "filled marks are the decision's operating point (the loss matrix and θ as the canvas decides): "
                     "with two classes, drag the round one along its curve to choose another.\n"
                     "Calibration: each bin's mean fitted p(C|x) against the frequency of C among its points "
                     "(circles, sized by count) and against the mean true p(C|x) (squares); on the diagonal a model "
                     "says what it knows.")
        self.roc.setToolTip(explained)
        self.calibration.setToolTip(explained)
        self.key = QLabel("Marks: the decision's operating point (round on the training points — drag it, with two "
                          "classes; square under the truth; diamond held out). Hover a plot for more.")
        self.key.setWordWrap(True)
        lay.addWidget(self.key)
        box = QGroupBox("Decisions: rows the true class, columns the decision (Bishop 1.5.1)")
        tables = QHBoxLayout(box)
        self.tables = {}
        for key, title in (("train", "training points (counts)"), ("held", "held-out points (counts)"),
                           ("truth", "under the true model (proportions)")):
            col = QVBoxLayout()
            head = QLabel(title)
            col.addWidget(head)
            table = QTableWidget()
            table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
            table.setSelectionMode(QAbstractItemView.SelectionMode.NoSelection)
            table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.Stretch)
            col.addWidget(table)
            tables.addLayout(col, 1)
            self.tables[key] = (head, table)
        self.losses = QLabel()
        self.losses.setWordWrap(True)
        self.losses.setTextFormat(Qt.TextFormat.PlainText)
        outer = QVBoxLayout()
        outer.addWidget(box)
        outer.addWidget(self.losses)
        lay.addLayout(outer)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)
        self.positive.currentIndexChanged.connect(lambda _i: self.refresh())
        fit_on_screen(self, 900, 760)
        self._fill_classes()
        self.refresh()

    def _fill_classes(self):
        names = self.source()[3]
        self.positive.blockSignals(True)
        self.positive.clear()
        for name in names:
            self.positive.addItem(f"{name} against the rest", name)
        self.positive.setCurrentIndex(min(1, len(names) - 1))
        self.positive.blockSignals(False)

    def refresh(self):
        """Judge the current fit: the points' ROC and calibration now, the truth's on a thread of their own."""
        from probviz import decision
        from probviz.app.background import Background

        self._follow.stop()
        judged = self.source()
        self._key = self._judged_key(judged)
        model, X, labels, names, truth, loss, reject_cost, held = judged
        c = self.positive.currentIndex()
        self._asked += 1
        asked = self._asked
        if model is None or not getattr(model, "probabilistic", True):
            self._say("A ROC needs a fitted model with p(C_k|x) (a discriminant function has none, Bishop 4.1)")
            return
        K = len(names)
        L = decision.zero_one_loss(K) if loss is None else np.asarray(loss, float)
        operating = (None if loss is None else L, reject_cost)
        try:
            now = decision.roc_report(model, X, labels, K, c, None, operating=operating, held=held)
            decisions = {"train": decision.fit_report(model, X, labels, K, None, L, reject_cost)}
            if held is not None:
                decisions["held"] = decision.fit_report(model, *held, K, None, L, reject_cost)
        except ValueError as e:
            self._say(str(e))
            return
        self._judged, self._curve = judged, now["points"]
        self._draw(now, names[c])
        self._show_decisions(decisions, names, loss is None)
        if truth is None:
            self.result = now
            self.status.setText(self._summary(now, names[c]) + "  No true model: File › Examples › fruit has one, "
                                "or make one in the Lab, for the curves under the truth.")
            return
        self.status.setText(self._summary(now, names[c]) + "  Computing under the true model…")
        self.refresh_button.setEnabled(False)

        def done(result):
            if not isValid(self) or asked != self._asked or result is None:  # closed, or asked anew meanwhile
                return
            self.refresh_button.setEnabled(True)
            if isinstance(result, Exception):
                self.status.setText(f"Under the true model: {result}")
                return
            result, under = result
            self.result = result
            self._draw(result, names[c])
            self._show_decisions({**decisions, "truth": under}, names, loss is None)
            self.status.setText(self._summary(result, names[c]))

        def work():
            stop = lambda: self._closing or asked != self._asked  # noqa: E731
            try:
                return (decision.roc_report(model, X, labels, K, c, truth, operating=operating, held=held,
                                            cancelled=stop),
                        decision.fit_report(model, X, labels, K, truth, L, reject_cost, cancelled=stop))
            except Cancelled:
                return None

        self._job = Background(work, self)
        self._job.done.connect(done)
        self._job.start()

    @staticmethod
    def _judged_key(j: Judged) -> tuple:
        """What makes the judgement another: the fitted model (a new object per fit), the decision, the truth,
        the classes and the split."""
        return (id(j.model), j.loss, j.reject_cost, id(j.truth), tuple(j.names), len(j.X),
                None if j.held is None else len(j.held[0]))

    def follow(self) -> None:
        """The window drew a new frame: when it shows another fit or decision (an edit, Undo, another loss),
        judge it a moment later; not while the operating point is in the hand (the drag is the change)."""
        if self._stroke is not None or self._closing or self._judged_key(self.source()) == self._key:
            return
        self.status.setText("The fit or its decision changed: judging it again…")
        self._follow.start()

    def _say(self, text):
        self.roc.plotItem.clear()
        self.calibration.plotItem.clear()
        self.target = self._shown = None
        for head, table in self.tables.values():
            table.clear()
            table.setRowCount(0)
            table.setColumnCount(0)
        self.losses.setText("")
        self.status.setText(text)

    def _show_decisions(self, reports: dict, names, zero_one: bool):
        """The confusion tables and the expected losses of ``reports`` (fit_report's, by "train", "held",
        "truth"); a table with no report is hidden."""
        self.decisions = reports
        for key, (head, table) in self.tables.items():
            r = reports.get(key)
            shown = r is not None
            head.setVisible(shown)
            table.setVisible(shown)
            if not shown:
                continue
            C = np.asarray(r["confusion_true"] if key == "truth" else r["confusion"], dtype=float)
            undecided = r.get("confusion_true_undecided" if key == "truth" else "confusion_undecided")
            cols = list(names) + (["no decision"] if undecided is not None else [])
            table.clear()
            table.setRowCount(len(names))
            table.setColumnCount(len(cols))
            table.setHorizontalHeaderLabels([f"→ {n}" if i < len(names) else n for i, n in enumerate(cols)])
            table.setVerticalHeaderLabels([f"{n}" for n in names])
            for k in range(len(names)):
                row = list(C[k]) + ([undecided[k]] if undecided is not None else [])
                for j, v in enumerate(row):
                    item = QTableWidgetItem(f"{v:.4f}" if key == "truth" else f"{int(v)}")
                    item.setTextAlignment(Qt.AlignmentFlag.AlignCenter)
                    if j == k:  # the right decisions: the diagonal, in bold
                        font = item.font()
                        font.setBold(True)
                        item.setFont(font)
                    table.setItem(k, j, item)
            table.resizeRowsToContents()  # as tall as its rows: the plots keep the room
            table.setFixedHeight(table.horizontalHeader().sizeHint().height() + 2 * table.frameWidth()
                                 + sum(table.rowHeight(k) for k in range(table.rowCount())))
        what = "error rate (the 0-1 loss)" if zero_one else "expected loss per point (eq. 1.80)"
        parts = [f"on the training points {reports['train']['expected_loss']:.4g}"]
        if reports.get("held") is not None and reports["held"].get("expected_loss") is not None:
            parts.append(f"on the held-out points {reports['held']['expected_loss']:.4g}")
        t = reports.get("truth")
        if t is not None:
            parts.append(f"under the truth {t['expected_loss_true']:.4g} (the Bayes {'error' if zero_one else 'risk'} "
                         f"{t['bayes_risk']:.4g}, which no decision beats)")
        text = f"The {what}: " + "; ".join(parts) + "."
        if t is not None and t.get("brier_true") is not None:
            text += f" Brier score under the truth {t['brier_true']:.4g}."
        self.losses.setText(text)

    @staticmethod
    def _summary(r, name) -> str:
        parts = [f"p({name}|x) against the rest. AUC on the {r['points']['n']} points {r['points']['auc']:.4f}"]
        if "held" in r:
            parts.append(f"on the {r['held']['n']} held out {r['held']['auc']:.4f}")
        if "truth" in r:
            parts.append(f"under the truth {r['truth']['auc']:.4f}, Bayes-optimal {r['bayes']['auc']:.4f}")
        cal = r["calibration"]
        parts.append(f"expected calibration error {cal['ece']:.4f}"
                     + (f", against the true posterior {cal['ece_true']:.4f}" if "ece_true" in cal else ""))
        return "; ".join(parts) + "."

    def _share(self, key: str) -> float:
        """The share of class C among the points a curve counts (the truth's prior p(C) for its curves)."""
        j, c = self._judged, self.positive.currentIndex()
        if key in ("truth", "bayes"):
            return float(j.truth.priors[c])
        labels = j.held[1] if key == "held" else j.labels
        return float(np.mean(np.asarray(labels) == c)) if len(labels) else np.nan

    def _precision_recall(self, key: str, fpr, tpr):
        """(recall, precision) of ROC points: precision = p(C) TPR / (p(C) TPR + (1 - p(C)) FPR), exactly
        TP / (TP + FP) on the points; none where nothing is decided C."""
        pi = self._share(key)
        fpr, tpr = np.asarray(fpr, dtype=float), np.asarray(tpr, dtype=float)
        decided = pi * tpr + (1 - pi) * fpr
        with np.errstate(invalid="ignore", divide="ignore"):
            return tpr[decided > 0], (pi * tpr / decided)[decided > 0]

    def _redraw(self):
        if self._shown is not None:
            self._draw(*self._shown)

    def _draw(self, r, name):
        self._shown = (r, name)
        pr = self.kind.currentIndex() == 1
        roc, cal = self.roc.plotItem, self.calibration.plotItem
        roc.clear()
        cal.clear()
        self.roc.setLabel("bottom", "recall (true positive rate)" if pr else "false positive rate")
        self.roc.setLabel("left", "precision" if pr else "true positive rate")
        chance = pg.mkPen("#999999", width=1, style=Qt.PenStyle.DashLine)
        if pr:  # a score that knows nothing: precision p(C) at every recall
            share = self._share("points")
            roc.plot([0, 1], [share] * 2, pen=chance, name=f"no skill: precision p(C) = {share:.2f}")
        else:
            roc.plot([0, 1], [0, 1], pen=chance)
        for key, label, color, style in CURVES:
            if key in r:
                pen = pg.mkPen(color, width=2.5, style=style)
                if pr:
                    roc.plot(*self._precision_recall(key, r[key]["fpr"], r[key]["tpr"]), pen=pen, name=label)
                else:
                    roc.plot(r[key]["fpr"], r[key]["tpr"], pen=pen, name=f"{label}: AUC {r[key]['auc']:.3f}")
        self.target = None
        for key, color, symbol in (("operating_held", OKABE_ITO[2], "d"), ("operating_truth", OKABE_ITO[1], "s"),
                                   ("operating_points", OKABE_ITO[0], "o")):
            if key not in r or not np.all(np.isfinite(r[key])):
                continue
            if pr:
                curve = {"operating_held": "held", "operating_truth": "truth"}.get(key, "points")
                x, y = self._precision_recall(curve, [r[key][0]], [r[key][1]])
                if len(x):
                    roc.addItem(pg.ScatterPlotItem(x, y, symbol=symbol, size=13, brush=pg.mkBrush(color),
                                                   pen=pg.mkPen("#222222", width=1.5)))
                continue
            if key == "operating_points" and self._draggable():
                self.target = pg.TargetItem(r[key], size=15, symbol="o", movable=True,
                                            pen=pg.mkPen("#222222", width=1.5),
                                            brush=pg.mkBrush(color), hoverPen=pg.mkPen("#222222", width=3),
                                            hoverBrush=pg.mkBrush(color))
                self.target.setToolTip("Drag along the curve: the decision that makes this trade-off of the two "
                                       "errors becomes the document's loss matrix")
                self.target.sigPositionChanged.connect(self._dragged)
                self.target.sigPositionChangeFinished.connect(self._dropped)
                roc.addItem(self.target)
                continue
            roc.addItem(pg.ScatterPlotItem([r[key][0]], [r[key][1]], symbol=symbol, size=13,
                                           brush=pg.mkBrush(color), pen=pg.mkPen("#222222", width=1.5)))
        self._frame_unit(self.roc, 9.0)  # the operating points: 13 to 15 pixels, their outline 1.5
        c = r["calibration"]
        cal.plot([0, 1], [0, 1], pen=pg.mkPen("#999999", width=1, style=Qt.PenStyle.DashLine))
        used = [i for i, n in enumerate(c["count"]) if n]
        mean_p = [c["mean_p"][i] for i in used]
        top = max(c["count"][i] for i in used) if used else 1
        sizes = [6 + 14 * np.sqrt(c["count"][i] / top) for i in used]
        cal.plot(mean_p, [c["frequency"][i] for i in used], pen=pg.mkPen(OKABE_ITO[0], width=2), symbol="o",
                 symbolSize=sizes, symbolBrush=OKABE_ITO[0], name=f"frequency of {name} (ECE {c['ece']:.3f})")
        if "mean_true" in c:
            cal.plot(mean_p, [c["mean_true"][i] for i in used], pen=pg.mkPen(OKABE_ITO[1], width=2,
                                                                                style=Qt.PenStyle.DashLine),
                     symbol="s", symbolSize=9, symbolBrush=OKABE_ITO[1],
                     name=f"true p({name}|x) (ECE {c['ece_true']:.3f})")
        self._frame_unit(self.calibration, max(sizes, default=9.0) / 2 + 1.0)

    def _frame_unit(self, plot, reach: float) -> None:
        """The unit square in ``plot``, with room around it for a mark of ``reach`` pixels from its centre at an edge
        (a bin of frequency 0 or 1, a corner of the ROC): a padding of a fixed share of the axis cut such marks in
        half on a projector's small plots. Framed again when the plot changes size."""
        plot._unit_reach = reach
        if not getattr(plot, "_frames_unit", False):
            plot._frames_unit = True
            plot.plotItem.vb.sigResized.connect(lambda *_: self._frame_unit(plot, plot._unit_reach))
        vb = plot.plotItem.vb
        side = min(vb.width(), vb.height())
        m = reach + 2.0  # pixels kept between the square's edge and the plot's
        padding = m / (side - 2 * m) if side > 4 * m else 0.25  # p side / (1 + 2 p) = m
        plot.setRange(xRange=(0, 1), yRange=(0, 1), padding=max(padding, 0.02))

    # --- the operating point, dragged ---------------------------------------------------------------
    def _draggable(self) -> bool:
        """Two classes, both fitted, decided by a loss alone (no rejection cost): each corner of the points'
        ROC is then the decision of a loss matrix."""
        j = self._judged
        return (self.decide is not None and j is not None and len(j.names) == 2 and j.reject_cost is None
                and len(getattr(j.model, "classes_", ())) == 2)

    def _corner(self) -> int:
        """The corner of the points' ROC nearest the dragged mark."""
        curve = self._curve
        p = self.target.pos()
        d = np.hypot(np.asarray(curve["fpr"]) - p.x(), np.asarray(curve["tpr"]) - p.y())
        return int(np.argmin(d))

    def _dragged(self):
        if self.target is None or self._curve is None or self._snapping:
            return
        curve = self._curve
        i = self._corner()
        self._snapping = True
        self.target.setPos(curve["fpr"][i], curve["tpr"][i])  # on the curve: a decision the points can have
        self._snapping = False
        from probviz.app.document import MAX_LOSS

        c = self.positive.currentIndex()
        L = loss_for_corner(curve["thresholds"], i, c, MAX_LOSS)
        if L is None:
            self.status.setText("That corner needs a loss beyond the largest one (its log-odds are too far out)")
            return
        if self._stroke is None:  # the drag's first move
            self._stroke = self.new_stroke() if self.new_stroke is not None else 0
        if self._judged.loss is None or [list(r) for r in self._judged.loss] != L:
            self.decide(L, self._stroke)
            self._judged = self._judged._replace(loss=tuple(map(tuple, L)))
        names = self._judged.names
        self.status.setText(f"Operating point: false positive rate {curve['fpr'][i]:.3f}, true positive rate "
                            f"{curve['tpr'][i]:.3f} on the training points; the loss matrix "
                            + ";".join(",".join(f"{v:g}" for v in row) for row in L)
                            + f" decides {names[c]} where p({names[c]}|x) > {1 / (1 + L[c][1 - c] / L[1 - c][c]):.3g}")

    def _dropped(self):
        """The drag ended: one undo step; judge the new decision (the truth's numbers anew)."""
        if self._stroke is None:
            return
        self._stroke = None
        self.refresh()

    def closeEvent(self, event):  # noqa: N802 (Qt's name)
        self.stop()
        super().closeEvent(event)

    def stop(self):
        """Stop the truth's integrals (at their next line) and drop their answer."""
        self._closing = True
        self._follow.stop()
        self._asked += 1
