"""The interface language: which one, and the Qt translators that speak it.

English is the source language of every string (``self.tr`` /
``QCoreApplication.translate``); 简体中文 comes from the package's
``resources/translations/qkv_desktop_zh_CN.qm``, compiled from the ``.ts`` beside it
by ``resources/update_translations.py`` at the top of the checkout. Qt's own
``qtbase`` catalogue is installed beside ours so that standard dialogs (file
dialogs, message box buttons) speak the same language.

The language is chosen, in this order, from an explicit ``lang`` (``--lang``), the
choice persisted in ``QSettings`` under ``ui/language`` (View → Language), and the
system locale (``zh*`` → ``zh_CN``, anything else → ``en``). Installing or removing a
translator makes Qt post ``QEvent.Type.LanguageChange`` to every window; widgets
re-set their texts in ``retranslate()``, which the ``Retranslating`` mixin
(``views/retranslate.py``) calls on that event. The main window's ``QObject``
helpers (actions, controllers) get no such event and use ``FollowsWindowLanguage``,
which watches their window for it.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication, QLibraryInfo, QLocale, QSettings, QTranslator

from qkv_desktop.resources import resource_path

__all__ = ["LANGUAGES", "DEFAULT_LANGUAGE", "SETTINGS_KEY", "normalize_language",
           "system_language", "saved_language", "choose_language", "catalogue_path",
           "install_translators", "switch_language", "install_translators_for_cli",
           "current_language"]

LANGUAGES = {"en": "English", "zh_CN": "简体中文"}
"""Interface languages by code, each named in its own language (never translated)."""

DEFAULT_LANGUAGE = "en"
"""The source language: its catalogue holds only the plural forms of counted texts."""

SETTINGS_KEY = "ui/language"

CATALOGUE = "qkv_desktop_{0}.qm"
"""File name of our compiled catalogue for a language, in ``resources/translations``."""

_ALIASES = {"en": "en", "zh_cn": "zh_CN", "zh": "zh_CN"}

_installed: dict[int, tuple[str, list[QTranslator]]] = {}
"""Per application (``id``): the language and the translators installed in it."""


def normalize_language(lang: str) -> str:
    """The language code for ``lang`` (``en``, ``zh_CN``; case and ``-`` forgiven).

    Raises
    ------
    ValueError
        For any other value, naming the languages there are.
    """
    key = str(lang).strip().replace("-", "_").lower()
    if key not in _ALIASES:
        raise ValueError(f"unknown interface language {lang!r}; choose one of: "
                         + ", ".join(LANGUAGES))
    return _ALIASES[key]


def system_language(locale: QLocale | None = None) -> str:
    """``zh_CN`` when the (system) locale's first UI language is Chinese, else ``en``."""
    locale = locale or QLocale.system()
    names = list(locale.uiLanguages()) or [locale.name()]
    return "zh_CN" if names[0].lower().startswith("zh") else DEFAULT_LANGUAGE


def saved_language(settings: QSettings | None = None) -> str | None:
    """The language View → Language persisted, or None (none saved, or unusable)."""
    value = (settings or QSettings()).value(SETTINGS_KEY)
    if not isinstance(value, str) or not value:
        return None
    try:
        return normalize_language(value)
    except ValueError:
        return None


def choose_language(lang: str | None = None, settings: QSettings | None = None) -> str:
    """``lang`` if given (``ValueError`` if unknown), else the saved choice, else the system's."""
    if lang is not None:
        return normalize_language(lang)
    return saved_language(settings) or system_language()


def catalogue_path(lang: str) -> Path:
    """Path of our compiled catalogue (``.qm``) for ``lang``; ``FileNotFoundError`` if lost."""
    return resource_path("translations", CATALOGUE.format(normalize_language(lang)))


def _translators(lang: str) -> list[QTranslator]:
    """Loaded translators for ``lang``: ours, then Qt's ``qtbase`` (if Qt ships it).

    English has a catalogue too, of plural forms only (``tr("%n rows", "", n)`` reads
    "1 row", "2 rows"): Qt's way to count in the source language.
    """
    if lang == DEFAULT_LANGUAGE:
        plurals = QTranslator()
        path = catalogue_path(lang)
        if not plurals.load(str(path)):
            raise FileNotFoundError(f"QKV Desktop plural forms could not be loaded: {path}")
        return [plurals]
    ours = QTranslator()
    path = catalogue_path(lang)
    if not ours.load(str(path)):
        raise FileNotFoundError(f"QKV Desktop translation could not be loaded: {path}")
    found = [ours]
    qt = QTranslator()
    qt_dir = QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath)
    if qt.load(f"qtbase_{lang}", qt_dir):
        found.append(qt)
    return found


def current_language(app: QCoreApplication | None = None) -> str:
    """The language whose translators are installed in ``app`` (``en`` if none)."""
    app = app or QCoreApplication.instance()
    entry = _installed.get(id(app)) if app is not None else None
    return entry[0] if entry else DEFAULT_LANGUAGE


def _install(app: QCoreApplication, lang: str) -> str:
    """Replace the translators in ``app`` by those of ``lang``; Qt announces the change."""
    new = _translators(lang)
    _, old = _installed.pop(id(app), (DEFAULT_LANGUAGE, []))
    for translator in old:
        app.removeTranslator(translator)
    for translator in new:
        app.installTranslator(translator)
    _installed[id(app)] = (lang, new)  # kept alive here: Qt does not own them
    return lang


def install_translators(app: QCoreApplication, lang: str | None = None,
                        settings: QSettings | None = None) -> str:
    """Install the translators of the chosen language (see ``choose_language``) in ``app``.

    Call it before building windows so they start in that language. Returns the code.
    ``ValueError`` for an unknown explicit ``lang``.
    """
    return _install(app, choose_language(lang, settings))


def switch_language(app: QCoreApplication, lang: str,
                    settings: QSettings | None = None) -> str:
    """Change the running interface to ``lang`` and remember it for the next start.

    Every widget retranslates on the ``LanguageChange`` event Qt posts (delivered by
    the event loop, or by ``QCoreApplication.sendPostedEvents()``). ``ValueError`` for
    an unknown ``lang``.
    """
    lang = normalize_language(lang)
    _install(app, lang)
    (settings or QSettings()).setValue(SETTINGS_KEY, lang)
    return lang


def install_translators_for_cli(lang: str | None = None) -> str:
    """For headless commands (``render``): a ``QGuiApplication`` speaking ``lang``.

    Exported figure titles and captions then come out in that language; without
    ``lang`` the saved choice or the system locale decides, as in the window.
    """
    from qkv_desktop.export.render import ensure_gui_app
    from qkv_desktop.views.identity import APPLICATION_NAME, ORGANIZATION_DOMAIN, ORGANIZATION_NAME

    if lang is not None:
        lang = normalize_language(lang)  # ValueError before anything else happens
    if not QCoreApplication.organizationName():  # the window's QSettings file, not a new one
        QCoreApplication.setOrganizationName(ORGANIZATION_NAME)
        QCoreApplication.setOrganizationDomain(ORGANIZATION_DOMAIN)
        QCoreApplication.setApplicationName(APPLICATION_NAME)
    return _install(ensure_gui_app(), choose_language(lang))
