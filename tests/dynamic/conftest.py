"""Fixtures the dynamic-shape tests share."""

from __future__ import annotations

import pytest

from ireelab.runtime.hal import command_buffer


@pytest.fixture
def dispatched(monkeypatch):
    """The workgroup counts of every dispatch recorded while the test runs (on the HAL
    command buffer, so they are the counts the host computed at dispatch time)."""
    counts: list[tuple[int, int, int]] = []
    record = command_buffer.CommandBuffer.dispatch

    def recording(self, command):
        counts.append(command.workgroups)
        return record(self, command)

    monkeypatch.setattr(command_buffer.CommandBuffer, "dispatch", recording)
    return counts
