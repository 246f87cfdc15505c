"""The grade store (issue 26): every grade kept, with the corrections teachers make to it."""
