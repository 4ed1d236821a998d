"""Launch QKV Desktop from a source checkout: ``python main.py [args]``."""

from qkv_desktop.app import main

if __name__ == "__main__":
    raise SystemExit(main())
