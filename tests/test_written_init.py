"""The values whose ``__init__`` is written out rather than generated (mypyc compiles a
written one; the frozen dataclass's own runs interpreted): each still builds as its dataclass
would -- the fields' names, order and defaults, every argument to its field, frozen."""

from __future__ import annotations

import inspect
from dataclasses import MISSING, FrozenInstanceError, fields

import pytest

from bolivia.engine.melds import Meld
from bolivia.engine.pile import Pickup
from bolivia.play.table.actions import Combine, Extend, GoOut, Lay, TakePile, TakeTop

WRITTEN = [Meld, Pickup, TakePile, TakeTop, Lay, Extend, Combine, GoOut]


def _sample(annotation: object, i: int) -> object:
    """A value of the field's type (a string: the source's annotations), distinct for each
    field."""
    kind = str(annotation).split("[")[0].split(" ")[0]
    samples: dict[str, object] = {"str": f"v{i}", "int": 100 + i, "tuple": (i,)}
    return samples.get(kind, object())  # a card, a meld: any object of its own


@pytest.mark.pure_only  # a compiled __init__ shows only (*args, **kwargs)
@pytest.mark.parametrize("cls", WRITTEN, ids=lambda cls: cls.__name__)
def test_a_written_init_takes_the_fields_in_order_with_their_defaults(cls: type) -> None:
    params = list(inspect.signature(cls.__init__).parameters.values())[1:]
    assert [p.name for p in params] == [f.name for f in fields(cls)]
    for param, field in zip(params, fields(cls), strict=True):
        default = inspect.Parameter.empty if field.default is MISSING else field.default
        assert param.default == default, field.name


@pytest.mark.pure_only  # compiled, a field's type reads as `type` (no sample to build)
@pytest.mark.parametrize("cls", WRITTEN, ids=lambda cls: cls.__name__)
def test_a_written_init_sets_every_field_and_keeps_the_value_frozen(cls: type) -> None:
    names = [f.name for f in fields(cls)]
    values = [_sample(f.type, i) for i, f in enumerate(fields(cls))]
    for made in (cls(*values), cls(**dict(zip(names, values, strict=True)))):
        assert [getattr(made, name) for name in names] == values
        assert all(getattr(made, n) is v for n, v in zip(names, values, strict=True))
        with pytest.raises(FrozenInstanceError):
            setattr(made, names[0], None)
