"""``python -m qkv_desktop``: the same as the ``qkv-desktop`` command."""

from qkv_desktop.app.launcher import main

raise SystemExit(main())
