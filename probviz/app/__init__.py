"""The Qt application: document, canvas, side panel, main window."""
