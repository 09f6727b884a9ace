"""File > Export image: where, what size, and what goes on the figure."""

from __future__ import annotations

import os

from PySide6.QtCore import Qt
from PySide6.QtWidgets import (
    QCheckBox, QDialog, QDialogButtonBox, QFileDialog, QFormLayout, QHBoxLayout, QLineEdit, QMessageBox,
    QPushButton, QSpinBox, QVBoxLayout, QWidget,
)

FILTERS = "PNG image (*.png);;SVG vector drawing (*.svg);;PDF document (*.pdf)"


class ExportDialog(QDialog):
    def __init__(self, parent, folder: str, title: str, size, legend: bool = True, scale: float = 1.0,
                 check=None, last: dict | None = None):
        """Starts from what the window shows: its size, its legend, its text scale; or from ``last``, the
        :meth:`options` of this document's last export (a PNG, then its SVG: the same title, size and look).
        ``check(path)`` raises ValueError (its one-line reason) for a file that must not be written: Save then
        says why and the dialog stays open for another name."""
        super().__init__(parent)
        self.check = check
        self.folder = folder  # where a name typed without a folder goes (the folder the File field starts in)
        self._confirmed = ""  # the name Browse's file dialog asked about replacing
        self.setWindowTitle("Export image")
        v = QVBoxLayout(self)
        form = QFormLayout()
        stem = (title or "probviz").rsplit(".", 1)[0]
        self.path = QLineEdit(os.path.join(folder, stem + ".png"))
        self.path.setToolTip("The extension picks the format: .png, .svg or .pdf")
        browse = QPushButton("Browse…")
        browse.clicked.connect(self._browse)
        row = QHBoxLayout()
        row.setContentsMargins(0, 0, 0, 0)  # the field lines up with the others, its label beside it
        row.addWidget(self.path, 1)
        row.addWidget(browse)
        holder = QWidget()
        holder.setLayout(row)
        form.addRow("File", holder)
        self.width_ = QSpinBox()
        self.height_ = QSpinBox()
        for box, value in ((self.width_, size.width()), (self.height_, size.height())):
            box.setRange(50, 10000)
            box.setSuffix(" px")
            box.setValue(max(value, 400))
        form.addRow("Width", self.width_)
        form.addRow("Height", self.height_)
        self.dpi = QSpinBox()
        self.dpi.setRange(0, 1200)
        self.dpi.setSpecialValueText("(not stored)")
        self.dpi.setValue(150)
        self.dpi.setToolTip("How large a pixel is on paper: stored in a PNG, and it sets the page size of an "
                            "SVG or PDF (width / dpi inches). The picture itself is the same.")
        form.addRow("Resolution (dpi)", self.dpi)
        self.scale = QSpinBox()
        self.scale.setRange(50, 400)
        self.scale.setSuffix(" %")
        self.scale.setValue(round(100 * scale))
        self.scale.setToolTip("Size of text, markers and lines")
        form.addRow("Text and markers", self.scale)
        self.title = QLineEdit()
        self.title.setPlaceholderText("(no title)")
        form.addRow("Title", self.title)
        self.legend = QCheckBox("Legend with class names and the model")
        self.legend.setChecked(legend)
        form.addRow("", self.legend)
        self.transparent = QCheckBox("Transparent background")
        form.addRow("", self.transparent)
        v.addLayout(form)
        if last:
            self.path.setText(last["path"])
            self.width_.setValue(last["width"])
            self.height_.setValue(last["height"])
            self.dpi.setValue(last["dpi"] or 0)
            self.scale.setValue(round(100 * last["scale"]))
            self.title.setText(last["title"] or "")
            self.legend.setChecked(last["legend"])
            self.transparent.setChecked(last["transparent"])
        self.buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        self.buttons.accepted.connect(self.accept)
        self.buttons.rejected.connect(self.reject)
        v.addWidget(self.buttons)

    def _browse(self):
        path, _ = QFileDialog.getSaveFileName(self, "Export image", self.path.text(), FILTERS)
        if path:
            self.path.setText(path)
            self._confirmed = path  # the file dialog asked before choosing a file that exists

    def accept(self):
        """Save: not over a file the window has open; over another existing file only when the person says
        so (typed names are asked about as the file dialog asks about chosen ones)."""
        path = self.target()
        if not path:
            self._say(QMessageBox.Icon.Warning, "Cannot export", "Name the file to write: a .png, .svg or .pdf.",
                      QMessageBox.StandardButton.Ok)
            return
        if self.check is not None:
            try:
                self.check(path)
            except ValueError as e:
                self._say(QMessageBox.Icon.Warning, "Cannot export", str(e), QMessageBox.StandardButton.Ok)
                return
        if path and path != self._confirmed and os.path.exists(path):
            answer = self._say(QMessageBox.Icon.Question, "Export image",
                               f"{os.path.basename(path)} already exists. Replace it?",
                               QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No)
            if answer != QMessageBox.StandardButton.Yes:
                return
        super().accept()

    def _say(self, icon, title, text, buttons):
        box = QMessageBox(icon, title, text, buttons, self)
        box.setTextFormat(Qt.TextFormat.PlainText)  # a file's name is text, never markup
        if buttons & QMessageBox.StandardButton.No:
            box.setDefaultButton(QMessageBox.StandardButton.No)
        return QMessageBox.StandardButton(box.exec())

    def target(self) -> str:
        """The file the File field names: a name typed without a folder ("fig.png") in the folder the field started
        in, as the field showed it (it went to the program's working folder, wherever that was); "~" is home."""
        path = os.path.expanduser(self.path.text().strip())
        return os.path.join(self.folder, path) if path and not os.path.isabs(path) else path

    def options(self) -> dict:
        return {"path": self.target(), "width": self.width_.value(), "height": self.height_.value(),
                "dpi": self.dpi.value() or None, "title": self.title.text().strip() or None,
                "legend": self.legend.isChecked(), "transparent": self.transparent.isChecked(),
                "scale": self.scale.value() / 100.0}
