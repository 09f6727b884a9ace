"""A small dialog to pick the x, y and label columns of a CSV file, with a preview."""

from __future__ import annotations

from PySide6.QtWidgets import (
    QComboBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QTableWidget, QTableWidgetItem, QVBoxLayout,
)

from probviz.data.csvio import CsvLayout

NO_LABEL = "(none: one class)"


class ColumnDialog(QDialog):
    """Shows the first rows; the person picks columns. ``choice()`` gives 1-based column numbers."""

    def __init__(self, layout: CsvLayout, filename: str, parent=None):
        super().__init__(parent)
        self.setWindowTitle(f"Columns of {filename}")
        names = [layout.column_name(i) for i in range(layout.n_columns)]
        v = QVBoxLayout(self)
        v.addWidget(QLabel("Which columns hold the two coordinates and the class label?"))
        table = QTableWidget(len(layout.preview), layout.n_columns)
        table.setHorizontalHeaderLabels(names)
        for r, row in enumerate(layout.preview):
            for c, cell in enumerate(row[:layout.n_columns]):
                table.setItem(r, c, QTableWidgetItem(cell))
        table.setMaximumHeight(220)
        v.addWidget(table)
        self.table = table
        form = QFormLayout()
        numeric = [n for i, n in enumerate(names) if layout.numeric[i]]
        self.x = QComboBox()
        self.y = QComboBox()
        self.label = QComboBox()
        self.x.addItems(numeric)
        self.y.addItems(numeric)
        self.label.addItems([NO_LABEL] + names)
        self.x.setCurrentText(names[layout.x])
        self.y.setCurrentText(names[layout.y])
        self.label.setCurrentText(names[layout.label] if layout.label is not None else NO_LABEL)
        form.addRow("x (horizontal)", self.x)
        form.addRow("y (vertical)", self.y)
        form.addRow("class label", self.label)
        v.addLayout(form)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        v.addWidget(buttons)
        self._names = names
        self._fit_the_columns()

    def _fit_the_columns(self):
        """Wide enough to show every column of the preview (a fourth column was cut off), up to four fifths of the
        screen; beyond that the table scrolls."""
        table = self.table
        table.resizeColumnsToContents()
        need = (table.verticalHeader().sizeHint().width() + table.horizontalHeader().length()
                + table.verticalScrollBar().sizeHint().width() + 2 * table.frameWidth() + 4)
        screen = self.screen().availableGeometry().width() if self.screen() is not None else 1024
        margins = self.layout().contentsMargins()
        self.resize(max(self.sizeHint().width(), min(need + margins.left() + margins.right(), int(0.8 * screen))),
                    self.sizeHint().height())

    def choice(self) -> tuple[str, str, str | None]:
        """1-based column numbers as strings (names may repeat), label None for no label column."""
        x = str(self._names.index(self.x.currentText()) + 1)
        y = str(self._names.index(self.y.currentText()) + 1)
        lab = self.label.currentText()
        return x, y, None if lab == NO_LABEL else str(self._names.index(lab) + 1)
