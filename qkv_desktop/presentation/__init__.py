"""What a pane shows: titles, colour maps, number formatting, cell texts.

Shared by the live panes (``views``) and the exported figures (``export``), so a
figure shows what the window shows. No widgets here.
"""
