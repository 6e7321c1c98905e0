"""JSON objects (tc's plan and run reports) as Python objects."""


class Record:
    """A JSON object with its keys as attributes (`r.disk_bytes`), nested
    objects and lists of objects as Records too; `r["key"]` and `r.raw` (the
    dict) also work."""

    def __init__(self, raw):
        self.raw = raw

    def __getattr__(self, key):
        raw = self.__dict__.get("raw", {})
        if key not in raw:
            raise AttributeError(f"{type(self).__name__} has no field '{key}' "
                                 f"(fields: {', '.join(sorted(raw))})")
        return wrap(raw[key])

    def __getitem__(self, key):
        return wrap(self.raw[key])

    def __contains__(self, key):
        return key in self.raw

    def __dir__(self):
        return sorted(set(super().__dir__()) | set(self.raw))

    def __repr__(self):
        fields = ", ".join(f"{k}={v!r}" for k, v in self.raw.items()
                           if not isinstance(v, (dict, list)))
        return f"{type(self).__name__}({fields})"


def wrap(value):
    if isinstance(value, dict):
        return Record(value)
    if isinstance(value, list):
        return [wrap(v) for v in value]
    return value
