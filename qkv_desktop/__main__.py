"""``python -m qkv_desktop``: the same as the ``qkv-desktop`` command."""

from .app import main

raise SystemExit(main())
