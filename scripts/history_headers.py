"""The `; key: value` header lines at the top of a generated history (`; model:`,
`; expected:`, `; generated:` ...), shared by the benchmark scripts."""


def read_headers(path):
    """The header lines before the first line that is not a `;` comment, as a dict."""
    found = {}
    with open(path) as f:
        for line in f:
            if not line.startswith(";"):
                break
            key, _, value = line[1:].strip().partition(": ")
            found[key] = value
    return found
