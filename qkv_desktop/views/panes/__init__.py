"""Heatmap panes: one matrix each, the pane grid, the heads overview."""
