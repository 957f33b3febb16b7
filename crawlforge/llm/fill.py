"""Fill-in mode: the page's own structured data answers the schema fields it can, and the
model is asked only for the rest, so its tokens go where the page gave nothing."""

from __future__ import annotations

from pydantic import BaseModel, TypeAdapter, ValidationError, create_model


def given_fields(schema: type[BaseModel], frontmatter: dict | None,
                 provenance: dict | None = None) -> tuple[dict, dict]:
    """``(values, sources)`` for the schema's top-level fields that the page's
    ``structured_data`` section holds under the same name, or under a name ending in
    ``_<field>`` (``product_name`` for ``name``), and that fit the field's type."""
    section = (frontmatter or {}).get("structured_data") or {}
    values, sources = {}, {}
    for name, info in schema.model_fields.items():
        key = name if name in section else next((k for k in section if k.endswith(f"_{name}")), None)
        if key is None or section[key] in (None, "", [], {}):
            continue
        try:
            values[name] = TypeAdapter(info.annotation).validate_python(section[key])
        except ValidationError:
            continue
        sources[name] = (provenance or {}).get(f"structured_data.{key}", "structured_data")
    return values, sources


def missing_schema(schema: type[BaseModel], given: dict) -> type[BaseModel] | None:
    """The schema cut down to the fields not given (None when nothing is missing)."""
    fields = {name: (info.annotation, info) for name, info in schema.model_fields.items() if name not in given}
    if not fields:
        return None
    return create_model(schema.__name__, __doc__=schema.__doc__, **fields)


def combine(schema: type[BaseModel], given: dict, asked: dict | None) -> dict | None:
    """The page's values and the model's answer as one record of the whole schema."""
    try:
        return schema.model_validate({**(asked or {}), **given}).model_dump(mode="json")
    except ValidationError:
        return None
