"""The grade store: every grade kept, with the corrections teachers make to it."""
