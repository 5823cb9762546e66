"""Layout of the CLI's --json documents (docs/interface.md §6, "Layout of --json output")."""

from __future__ import annotations

import json

import numpy as np

from dimcalc.cli import output


def test_small_documents_are_indented_and_big_ones_compact_with_the_same_content(capsys, monkeypatch):
    doc = {"value": np.int64(3), "witness": {"tree": [{"hypothesis": j} for j in range(50)]}}
    output.emit_json(doc)
    small = capsys.readouterr().out
    assert small.startswith('{\n  "value": 3') and small.count("\n") > 50
    monkeypatch.setattr(output, "PRETTY_JSON_LIMIT", 100)  # the same document is now "big"
    output.emit_json(doc)
    big = capsys.readouterr().out
    assert big.count("\n") == 1 and big.startswith('{"value":3,')
    assert json.loads(big) == json.loads(small)
