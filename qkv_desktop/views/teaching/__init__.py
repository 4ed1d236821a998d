"""Teaching docks: explain panel, diagnostics, lesson banners, labs."""
