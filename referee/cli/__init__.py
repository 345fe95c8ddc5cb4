"""The ``ligretto`` command line: thin shells over the core; no rule logic lives here."""
