"""Validate a model's JSON against the user's pydantic schema, keeping what is valid.

For a schema whose top level holds lists (or is a list), one bad item must not lose the
others: an item with any error is dropped, the rest are kept, and each error names its path
(``products.1.price``)."""

from __future__ import annotations

import typing
from dataclasses import dataclass, field

from pydantic import BaseModel, RootModel, TypeAdapter, ValidationError, create_model


@dataclass
class Validation:
    data: object = None
    partial_items: list = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    reshaped: bool = False  # a bare list was wrapped in (or unwrapped from) the schema's object
    # a single-object schema's answer that failed: its top-level fields that validate alone
    fields: dict = field(default_factory=dict)


def validate_output(value, schema: type[BaseModel]) -> Validation:
    """Whole-schema validation first; on errors, drop only the list items they point at."""
    lists = list_fields(schema)
    value, reshaped = _fit_shape(value, schema, lists)
    try:
        return Validation(schema.model_validate(value).model_dump(mode="json"), reshaped=reshaped)
    except ValidationError as error:
        problems = error.errors(include_url=False)
    errors = [{"path": ".".join(map(str, p["loc"])), "message": p["msg"], "type": p["type"]} for p in problems]
    bad = {_item_of(p["loc"], lists) for p in problems} - {None}
    if not bad:
        fields = {} if lists else valid_fields(value, schema)
        return Validation(errors=errors, reshaped=reshaped, fields=fields)
    pruned = _drop_items(value, bad)
    try:
        data = schema.model_validate(pruned).model_dump(mode="json")
    except ValidationError:
        data = None
    items = [item for name, item_type in lists.items() for item in _valid_items(pruned, name, item_type)]
    return Validation(data, items, errors, reshaped)


def valid_fields(value, schema: type[BaseModel]) -> dict:
    """The fields of ``value`` that hold a value and validate on their own, as the schema
    dumps them: what is right in an answer that is wrong elsewhere."""
    if not isinstance(value, dict) or issubclass(schema, RootModel):
        return {}
    kept = {}
    for name, info in schema.model_fields.items():
        key = info.alias or name
        if value.get(key) is None:
            continue
        alone = create_model(schema.__name__, **{name: (info.annotation, info)})
        try:
            kept.update(alone.model_validate({key: value[key]}).model_dump(mode="json"))
        except ValidationError:
            continue
    return kept


def list_fields(schema: type[BaseModel]) -> dict[str | None, object]:
    """List-valued top-level fields as ``{name: item type}``; ``None`` names a list root."""
    if issubclass(schema, RootModel):
        item = _list_item_type(schema.model_fields["root"].annotation)
        return {} if item is None else {None: item}
    found = {name: _list_item_type(info.annotation) for name, info in schema.model_fields.items()}
    return {name: item for name, item in found.items() if item is not None}


def _list_item_type(annotation):
    """``X`` for ``list[X]`` or ``list[X] | None``, else None."""
    if typing.get_origin(annotation) is list:
        return (typing.get_args(annotation) or (typing.Any,))[0]
    for arg in typing.get_args(annotation):
        if typing.get_origin(arg) is list:
            return (typing.get_args(arg) or (typing.Any,))[0]
    return None


def _fit_shape(value, schema, lists):
    """Models often answer ``[...]`` for ``{"products": [...]}`` and the reverse."""
    if None in lists and isinstance(value, dict):
        inner = [v for v in value.values() if isinstance(v, list)]
        return (inner[0], True) if len(inner) == 1 else (value, False)
    if isinstance(value, list) and len(lists) == 1 and not issubclass(schema, RootModel):
        return {next(iter(lists)): value}, True
    return value, False


def _item_of(loc: tuple, lists) -> tuple | None:
    """``(list field, index)`` of the item an error location points into, if any."""
    if None in lists:
        return (None, loc[0]) if loc and isinstance(loc[0], int) else None
    if len(loc) >= 2 and loc[0] in lists and isinstance(loc[1], int):
        return loc[0], loc[1]
    return None


def _drop_items(value, bad: set) -> object:
    def keep(name, items):
        return [item for i, item in enumerate(items) if (name, i) not in bad]

    if isinstance(value, list):
        return keep(None, value)
    names = {name for name, _ in bad}
    return {k: keep(k, v) if k in names and isinstance(v, list) else v for k, v in value.items()}


def _valid_items(value, name, item_type) -> list:
    items = value if name is None else (value.get(name) if isinstance(value, dict) else None)
    if not isinstance(items, list):
        return []
    adapter = TypeAdapter(item_type)
    valid = []
    for item in items:
        try:
            valid.append(adapter.dump_python(adapter.validate_python(item), mode="json"))
        except ValidationError:
            continue
    return valid
