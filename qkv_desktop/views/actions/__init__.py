"""Menu and toolbar action controllers: files, export."""
