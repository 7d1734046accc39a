"""The one typing shim: ``TYPE_CHECKING`` without importing :mod:`typing`.

``import typing`` costs milliseconds, more than some of toolmatch's modules together, and
a test run imports toolmatch in every worker. Type checkers take any name
``TYPE_CHECKING`` as true, so ``if TYPE_CHECKING:`` blocks still give them the imports
they need while Python skips them. (``pytest_toolmatch`` keeps its own copy: it must not
import toolmatch before an assertion fails.)
"""

TYPE_CHECKING = False

__all__ = ["TYPE_CHECKING"]
