"""Panel sections for teaching: the model's numbers, the probe's path to p(C_k|x), prior sliders."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt
from PySide6.QtGui import QFont, QGuiApplication
from PySide6.QtWidgets import (
    QGroupBox, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget,
)

from probviz.app.document import Document
from probviz.app.widgets import NumberField
from probviz.models import REGISTRY
from probviz.report import model_lines


#: a bracketed group this long or shorter is kept on one line; a longer one breaks after its commas
WHOLE_GROUP = 36


def unbroken(text: str) -> str:
    """Text for a wrapping label that breaks lines between terms, never inside one: no break after
    the bar of p(C|x) or a slash (1/K), around " = ", " ≈ ", " ∝ " or " ∓ ", after ln or exp (they keep their
    argument), between "eq." or "Bishop" and its number or "accuracy" and its value, or after the commas of a
    coordinate pair or a short vector, or inside a short row of a matrix [a b; c d] (it breaks between rows). A
    vector longer than WHOLE_GROUP characters (nine RBF weights) breaks after its commas: kept whole, it made the
    panel as wide as itself. A chain of relations (a = ln p(x|C)p(C) = -4.9) may break before its second sign and
    those after it, as displayed formulas do: whole, the probe's line was wider than the Model panel in
    presentation mode at 1024 x 768."""
    text = text.replace("|", "|\u2060")
    text = re.sub(r" ([=≈∝∓±]) ", "\u00a0\\1\u00a0", text)  # a relation keeps both its sides
    text = re.sub(r"(?<=\S)/(?=[^\s/]{1,8}(?![^\s/]))", "/\u2060", text)  # 1/K, (α/2)‖w‖² (not a long path)
    text = re.sub(r"\b(ln|exp|eqs?\.|accuracy|Bishop) ", "\\1\u00a0", text)
    text = re.sub(r"\(([^()]*)\)", lambda m: "(" + (m.group(1).replace(", ", ",\u00a0")
                                                    if len(m.group(1)) <= WHOLE_GROUP else m.group(1)) + ")", text)
    text = re.sub(r"\[([^\[\]]*)\]", lambda m: "[" + "; ".join(row.replace(" ", "\u00a0") if len(row) <= WHOLE_GROUP
                                                            else row for row in m.group(1).split("; ")) + "]", text)
    return _CHAIN.sub(_chain, text)


_RELATION = "\u00a0[=≈∝∓±]\u00a0"  # a relation glued to both its sides
#: an unbreakable stretch of text with two relations or more (a chain), tried from a stretch's start only
_CHAIN = re.compile(f"(?<![^ \\n])[^ \\n]*{_RELATION}[^ \\n]*{_RELATION}[^ \\n]*")


def _chain(match: re.Match) -> str:
    """A chain of relations with a break allowed before each relation after its first."""
    parts = re.split(f"({_RELATION})", match.group(0))
    return "".join(parts[:3]) + "".join(" " + parts[i][1:] + parts[i + 1] for i in range(3, len(parts), 2))


_ANY_SIZE = (1 << 24) - 1  # Qt's QWIDGETSIZE_MAX: no maximum


class FormulaLabel(QLabel):
    """A monospace label for lines of formulas: wraps between terms only; ``plain()`` is the text."""

    def __init__(self):
        super().__init__("—")
        self._plain = "—"
        self._held = False  # kept at its size while the hand moves (``setText``)
        self.setTextFormat(Qt.TextFormat.PlainText)  # class names are text, never markup
        self.setWordWrap(True)
        # at the top of its box: a label held taller while the hand moves (``setText``) keeps its lines in place,
        # the room it keeps below them (centred, the text moved by half a line whenever a line wrapped or not)
        self.setAlignment(Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        font = QFont("monospace")
        font.setStyleHint(QFont.StyleHint.TypeWriter)
        self.setFont(font)

    def setText(self, text: str, steady: bool = False) -> None:  # noqa: N802 (Qt's name)
        """``steady`` (the hand is moving the points): the label keeps its size, growing if the new text needs
        more. A line that wraps in one frame and not the next would otherwise move and repaint everything below
        it, frame after frame (8 ms at 10,000 points), and even a text of the same height lays the side panel
        and the window out again: Qt passes a widget of fixed size by. Set unsteady, it takes its own size."""
        self._plain = text
        if not (steady and self.isVisible()):
            super().setText(unbroken(text))
            if self._held:
                self._held = False
                self.setMinimumSize(0, 0)
                self.setMaximumSize(_ANY_SIZE, _ANY_SIZE)
            return
        size = self.size()
        self._held = True
        self.setFixedSize(size)
        shown = unbroken(text)
        super().setText(shown)
        need = self._measure(shown, size.width())
        if need > size.height():
            self.setFixedHeight(need)

    _twin = None  # a label as this one, without text selection: it measures a text's height

    def _measure(self, text: str, width: int) -> int:
        """This label's height for ``text`` at ``width``, as its ``heightForWidth`` gives it. A selectable label lays
        its text out as a document three times to say (1.4 ms a paced update of the Parameters box at 10,000
        points); a label without text interaction wraps the same by the font's metrics, once."""
        twin = self._twin
        if twin is None:
            twin = self._twin = QLabel()
            twin.setTextFormat(Qt.TextFormat.PlainText)
            twin.setWordWrap(True)
            twin.setAlignment(self.alignment())
        if twin.font() != self.font():
            twin.setFont(self.font())
        if twin.contentsMargins() != self.contentsMargins():
            twin.setContentsMargins(self.contentsMargins())
        twin.setText(text)
        return twin.heightForWidth(width)

    def plain(self) -> str:
        return self._plain


class ParamsBox(QGroupBox):
    """The fitted parameters; copyable as plain text and as LaTeX."""

    def __init__(self, doc: Document, parent=None):
        super().__init__("Parameters", parent)
        self.doc = doc
        self.result = None
        v = QVBoxLayout(self)
        self.text = FormulaLabel()
        v.addWidget(self.text)
        row = QHBoxLayout()
        self.copy_text = QPushButton("Copy text")
        self.copy_text.setToolTip("Copy these numbers as plain text")
        self.copy_latex = QPushButton("Copy LaTeX")
        self.copy_latex.setToolTip("Copy these numbers as LaTeX equations, for slides")
        row.addWidget(self.copy_text)
        row.addWidget(self.copy_latex)
        v.addLayout(row)
        self.copy_text.clicked.connect(lambda: self.copy("text"))
        self.copy_latex.clicked.connect(lambda: self.copy("latex"))

    def lines(self, fmt: str) -> list[str]:
        frame = self.result
        if frame is None or frame.fit.model is None:
            return []
        fit = frame.fit  # with many points the summary comes once the hand rests: its lines keep their place
        return model_lines(fit.model, list(frame.request.class_names), fit.summary, fmt, pending=not fit.summary)

    def show_result(self, frame):
        self.result = frame
        lines = self.lines("text")
        if frame is not None and frame.fit.notices:
            lines += [f"Note: {n}" for n in frame.fit.notices]
        self.text.setText("\n".join(lines) if lines else "—", steady=frame is not None and frame.request.draft)
        self.copy_text.setEnabled(bool(lines))
        self.copy_latex.setEnabled(bool(lines))

    def copy(self, fmt: str) -> str:
        text = "\n".join(self.lines(fmt))
        QGuiApplication.clipboard().setText(text)
        return text


class ProbeBox(QGroupBox):
    """p(x|C_k), p(C_k), a_k and p(C_k|x) at the pinned probe point."""

    def __init__(self, doc: Document, parent=None):
        super().__init__("Probe", parent)
        self.doc = doc
        v = QVBoxLayout(self)
        self.text = FormulaLabel()
        self.text.setToolTip("Shift+click places the probe; drag it, or move it with the arrow keys")
        v.addWidget(self.text)
        self.remove = QPushButton("Remove probe")
        self.remove.clicked.connect(lambda: doc.set_probe(None))
        v.addWidget(self.remove)

    def show_result(self, frame):
        probe = self.doc.probe
        self.remove.setEnabled(probe is not None)
        if probe is None:
            self.text.setText("Shift+click the canvas to pin a probe point.")
        elif frame is None or frame.probe is None:
            self.text.setText(f"x = ({probe[0]:.4g}, {probe[1]:.4g})")
        else:
            self.text.setText("\n".join(frame.probe.lines), steady=frame.request.draft)


class PriorsBox(QGroupBox):
    """One field per class for p(C_k), typed or slid; changing one rescales the others so they sum to 1."""

    def __init__(self, doc: Document, parent=None):
        super().__init__("Priors p(C_k)", parent)
        self.doc = doc
        self.setToolTip("Override the class frequencies. Priors enter LDA only through w_k0 "
                        "(Bishop eq. 4.70), so the boundary moves parallel to itself.")
        self.v = QVBoxLayout(self)
        self.rows = QWidget()
        self.rows_layout = QVBoxLayout(self.rows)
        self.rows_layout.setContentsMargins(0, 0, 0, 0)
        self.v.addWidget(self.rows)
        self.reset = QPushButton("Reset to frequencies")
        self.reset.clicked.connect(lambda: doc.set_priors(None))
        self.v.addWidget(self.reset)
        self.fields: list[NumberField] = []
        self.labels: list = []

    def refresh(self):
        doc = self.doc
        self.setVisible(REGISTRY[doc.model_name].generative)
        n = len(doc.classes)
        while len(self.fields) < n:
            row = QHBoxLayout()
            name = QLabel()
            name.setTextFormat(Qt.TextFormat.PlainText)  # class names are text, never markup
            name.setMinimumWidth(60)
            field = NumberField(0.001, 0.999, decimals=3, step=0.01)
            field.setToolTip("p(C_k): type a value or use Up/Down; the other priors are rescaled to sum 1")
            i = len(self.fields)
            field.valueChanged.connect(lambda v, i=i: self._changed(i, v))
            row.addWidget(name)
            row.addWidget(field, 1)
            holder = QWidget()
            holder.setLayout(row)
            self.rows_layout.addWidget(holder)
            self.fields.append(field)
            self.labels.append((name, holder))
        priors = doc.effective_priors()
        for i, field in enumerate(self.fields):
            name, holder = self.labels[i]
            holder.setVisible(i < n)
            if i < n:
                name.setText(doc.classes[i].name)
                field.setValue(float(priors[i]))
        self.reset.setEnabled(doc.priors is not None)
        self.setTitle("Priors p(C_k)" + ("" if doc.priors is None else " (set by hand)"))

    def _changed(self, i: int, v: float):
        p = self.doc.effective_priors().astype(float)
        if len(p) == 1:
            return
        rest = p.sum() - p[i]
        p = p * ((1 - v) / rest) if rest > 0 else p * 0 + (1 - v) / (len(p) - 1)
        p[i] = v
        self.doc.set_priors(p)
