"""A tour of toolmatch on one recorded tool call: run it with `python examples/quickstart.py`."""

from toolmatch import ANY, Approx, Fuzzy, Maybe, Partial, Regex, explain

# What the agent sent, as the SDK handed it back (arguments already parsed).
actual = {"city": "New  York", "days": 3.0, "units": "metric", "date": "2026-12-01"}

expected = {"city": Fuzzy("new york"), "days": 3, "units": ANY, "date": Regex(r"2026-\d\d-\d\d")}
assert expected == actual  # plain dict equality; the matchers decide their own values
print("inline equality:", expected == actual)

subset = Partial({"city": Fuzzy("new york"), "limit": Maybe(10)})
print("partial match:  ", subset == actual)

wrong = {"city": Fuzzy("Boston"), "days": Approx(5, abs=1), "units": ANY, "date": "2026-12-01"}
print("why not:")
for mismatch in explain(wrong, actual):
    print("   ", mismatch)
