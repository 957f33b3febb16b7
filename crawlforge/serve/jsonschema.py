"""A JSON Schema given with a request, as the pydantic model the LLM pipeline fills.

The pipeline loads its schema from a ``module:Model`` setting; ``crawlforge.serve.jsonschema:``
followed by the schema's JSON names the model built from that schema (the module's
``__getattr__``), so a schema travels as a plain setting, to an in-process crawl or to scrapyd,
and nothing is kept between requests. The schemas an agent writes for extraction are covered:
an object of typed properties (strings, numbers, integers, booleans, arrays, nested objects,
enums), ``required``, ``description`` and ``null`` in a type list.
"""

from __future__ import annotations

import json
from typing import Any, Literal

from jsonschema import Draft202012Validator
from jsonschema.exceptions import SchemaError as InvalidSchema
from pydantic import BaseModel, Field, create_model

PREFIX = f"{__name__}:"
SCALARS = {"string": str, "number": float, "integer": int, "boolean": bool}


class SchemaError(ValueError):
    """A schema that is not valid JSON Schema, or not an object of properties."""


def check_schema(schema: dict) -> None:
    """Raise ``SchemaError`` (one line) unless ``schema`` can become a model."""
    try:
        Draft202012Validator.check_schema(schema)
    except InvalidSchema as error:
        raise SchemaError(f"not a valid JSON Schema: {error.message}") from None
    model_from_schema(schema)


def setting_value(schema: dict) -> str:
    """The ``CRAWLFORGE_LLM_SCHEMA`` value naming ``schema``'s model."""
    return PREFIX + json.dumps(schema, separators=(",", ":"), sort_keys=True)


def model_from_schema(schema: dict, name: str = "Extraction") -> type[BaseModel]:
    if schema.get("type", "object") != "object" or not isinstance(schema.get("properties"), dict) \
            or not schema["properties"]:
        raise SchemaError("the schema must be an object with properties")
    required = set(schema.get("required") or ())
    fields = {}
    for key, spec in schema["properties"].items():
        kind = field_type(spec if isinstance(spec, dict) else {}, f"{name}_{key}")
        if key in required:
            fields[key] = (kind, Field(..., description=spec.get("description")))
        else:
            fields[key] = (kind | None, Field(None, description=spec.get("description")))
    return create_model(name, __doc__=schema.get("description"), **fields)


def field_type(spec: dict, name: str) -> Any:
    """The Python type of one property; an unknown or missing type accepts anything."""
    if "enum" in spec and spec["enum"]:
        return Literal[tuple(spec["enum"])]
    kinds = spec.get("type")
    kinds = kinds if isinstance(kinds, list) else [kinds]
    nullable = "null" in kinds
    kind = next((k for k in kinds if k != "null"), None)
    if kind in SCALARS:
        python = SCALARS[kind]
    elif kind == "array":
        python = list[field_type(spec.get("items") or {}, name)]
    elif kind == "object" and spec.get("properties"):
        python = model_from_schema(spec, name)
    elif kind == "object":
        python = dict[str, Any]
    else:
        python = Any
    return python | None if nullable and python is not Any else python


def __getattr__(name: str) -> type[BaseModel]:
    """``crawlforge.serve.jsonschema:{...}``: the model of the schema written after the colon."""
    if not name.startswith("{"):
        raise AttributeError(name)
    try:
        return model_from_schema(json.loads(name))
    except (json.JSONDecodeError, SchemaError) as error:
        raise AttributeError(f"{name[:60]}...: {error}") from None
