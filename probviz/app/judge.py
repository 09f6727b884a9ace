"""The ROC and calibration dialog: how good is the shown fit, really? (Bishop 1.5; issue "judge every decision
against the truth").

For one class against the rest it draws the fitted score's ROC on the training points, and with a true model
its ROC under the truth and the Bayes-optimal ROC (the true posterior's), each with its AUC, the decision's
operating point on each (the loss matrix's and theta's decision, as the canvas draws it), and the reliability
diagram of p(C|x): the fitted probabilities binned against the points' frequencies and against the true
posterior. Everything comes from :func:`probviz.decision.roc_report`: the points' part at once, the truth's
integrals (seconds) on a thread of their own while the dialog stays live. It shows the fit it was opened
on (or refreshed for): Refresh takes the window's current fit.
"""

from __future__ import annotations

import numpy as np
import pyqtgraph as pg
from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout,
)

from shiboken6 import isValid

from probviz.app.widgets import SmallPlot
from probviz.colors import OKABE_ITO
from probviz.style import Style
from probviz.models.truth import Cancelled

CURVES = (("points", "on the points", OKABE_ITO[0], Qt.PenStyle.SolidLine),
          ("truth", "under the truth", OKABE_ITO[1], Qt.PenStyle.DashLine),
          ("bayes", "Bayes-optimal", "#555555", Qt.PenStyle.DotLine))


class JudgeDialog(QDialog):
    """``source()`` gives (model, X, labels, class names, truth or None, loss or None, reject cost or None) of
    the window's current fit, on the training points."""

    def __init__(self, source, parent=None, style=None):
        super().__init__(parent)
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.setWindowTitle("ROC and calibration")
        self.source = source
        self.result = None  # the last roc_report drawn whole (the truth's part included)
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
        row.addWidget(self.refresh_button)
        lay.addLayout(row)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setTextFormat(Qt.TextFormat.PlainText)
        lay.addWidget(self.status)
        plots = QHBoxLayout()
        self.roc = SmallPlot(height=320)
        self.roc.setAspectLocked(True)
        self.roc.setLabel("bottom", "false positive rate")
        self.roc.setLabel("left", "true positive rate")
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
        self.key = QLabel("ROC (Bishop 1.5): solid on the training points, dashed under the true model, dotted the "
                          "Bayes-optimal one (the true posterior's, which no score beats); the filled marks are the "
                          "decision's operating point (the loss matrix and θ as the canvas decides). Calibration: "
                          "each bin's mean fitted p(C|x) against the frequency of C among its points (circles, "
                          "sized by count) and against the mean true p(C|x) (squares); on the diagonal a model "
                          "says what it knows.")
        self.key.setWordWrap(True)
        lay.addWidget(self.key)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.close)
        lay.addWidget(buttons)
        self.positive.currentIndexChanged.connect(lambda _i: self.refresh())
        self.resize(860, 560)
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

        model, X, labels, names, truth, loss, reject_cost = self.source()
        c = self.positive.currentIndex()
        self._asked += 1
        asked = self._asked
        if model is None or not getattr(model, "probabilistic", True):
            self._say("A ROC needs a fitted model with p(C_k|x) (a discriminant function has none, Bishop 4.1)")
            return
        operating = (None if loss is None else np.asarray(loss, float), reject_cost)
        try:
            now = decision.roc_report(model, X, labels, len(names), c, None, operating=operating)
        except ValueError as e:
            self._say(str(e))
            return
        self._draw(now, names[c])
        if truth is None:
            self.result = now
            self.status.setText(self._summary(now, names[c]) + "  No true model: open example:fruit, or make one "
                                "in the Lab, for the curves under the truth.")
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
            self.result = result
            self._draw(result, names[c])
            self.status.setText(self._summary(result, names[c]))

        def work():
            try:
                return decision.roc_report(model, X, labels, len(names), c, truth, operating=operating,
                                           cancelled=lambda: self._closing or asked != self._asked)
            except Cancelled:
                return None

        self._job = Background(work, self)
        self._job.done.connect(done)
        self._job.start()

    def _say(self, text):
        self.roc.plotItem.clear()
        self.calibration.plotItem.clear()
        self.status.setText(text)

    @staticmethod
    def _summary(r, name) -> str:
        parts = [f"p({name}|x) against the rest. AUC on the {r['points']['n']} points {r['points']['auc']:.4f}"]
        if "truth" in r:
            parts.append(f"under the truth {r['truth']['auc']:.4f}, Bayes-optimal {r['bayes']['auc']:.4f}")
        cal = r["calibration"]
        parts.append(f"expected calibration error {cal['ece']:.4f}"
                     + (f", against the true posterior {cal['ece_true']:.4f}" if "ece_true" in cal else ""))
        return "; ".join(parts) + "."

    def _draw(self, r, name):
        roc, cal = self.roc.plotItem, self.calibration.plotItem
        roc.clear()
        cal.clear()
        roc.plot([0, 1], [0, 1], pen=pg.mkPen("#999999", width=1, style=Qt.PenStyle.DashLine))
        for key, label, color, style in CURVES:
            if key in r:
                roc.plot(r[key]["fpr"], r[key]["tpr"], pen=pg.mkPen(color, width=2.5, style=style),
                         name=f"{label}: AUC {r[key]['auc']:.3f}")
        for key, color, symbol in (("operating_points", OKABE_ITO[0], "o"), ("operating_truth", OKABE_ITO[1], "s")):
            if key in r and np.all(np.isfinite(r[key])):
                roc.addItem(pg.ScatterPlotItem([r[key][0]], [r[key][1]], symbol=symbol, size=13,
                                               brush=pg.mkBrush(color), pen=pg.mkPen("#222222", width=1.5)))
        roc.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.02)
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
        cal.setRange(xRange=(0, 1), yRange=(0, 1), padding=0.02)

    def closeEvent(self, event):  # noqa: N802 (Qt's name)
        self.stop()
        super().closeEvent(event)

    def stop(self):
        """Stop the truth's integrals (at their next line) and drop their answer."""
        self._closing = True
        self._asked += 1
