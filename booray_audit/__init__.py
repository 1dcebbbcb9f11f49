"""booray-audit: parse, replay, settle and store Bourré (Booray) hand histories."""

__version__ = "0.1.0"
