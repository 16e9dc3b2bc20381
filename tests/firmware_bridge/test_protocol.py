"""The clock wire protocol's pure layers: messages, framing and the link.

Unit tests pin the spec's examples and every error path (each reports the byte
offset where the input went wrong); hypothesis checks the round trips: binary
encode/decode, the MQTT JSON form, COBS, and frames cut at random points.
The message strategies here are shared with tests/test_fuzz.py.
"""

from __future__ import annotations

import binascii
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from firmware_bridge.wire.framing import (
    MAX_FRAME,
    FrameDecoder,
    FrameError,
    cobs_decode,
    cobs_encode,
    crc16,
    encode_frame,
)
from firmware_bridge.wire.link_layer import HEARTBEAT_MS, LOST_AFTER_MS, MAX_RETRIES, RETRY_MS, Link
from firmware_bridge.wire.protocol import (
    MAX_TEXT,
    NO_SIDE,
    PROTOCOL_VERSION,
    Ack,
    Beep,
    Heartbeat,
    Hello,
    Message,
    MessageType,
    Nak,
    NakReason,
    Pause,
    Press,
    ProtocolError,
    Set,
    State,
    Text,
    decode,
    encode,
    from_json,
    needs_ack,
    to_json,
)

# --- strategies (shared with test_fuzz) -------------------------------------------------

seqs = st.integers(0, 0xFFFF)
u32 = st.integers(0, 2**32 - 1)
i32 = st.integers(-(2**31), 2**31 - 1)
sides = st.sampled_from([0, 1])
runnings = st.sampled_from([0, 1, None])
times = st.tuples(i32, i32)
_chars = st.characters(codec="utf-8")


def _fits(limit: int) -> st.SearchStrategy[str]:
    return st.text(_chars, max_size=limit).filter(lambda t: len(t.encode("utf-8")) <= limit)


messages: st.SearchStrategy[Message] = st.one_of(
    st.builds(Hello, seqs, _fits(255), st.integers(0, 0xFFFF), st.integers(0, 255)),
    st.builds(Press, seqs, sides, u32, st.none() | times),
    st.builds(Pause, seqs),
    st.builds(State, seqs, times, runnings),
    st.builds(Set, seqs, times, runnings, st.booleans()),
    st.builds(Text, seqs, _fits(MAX_TEXT)),
    st.builds(Beep, seqs, st.integers(0, 0xFFFF)),
    st.builds(Ack, seqs, seqs),
    st.builds(Nak, seqs, seqs, st.sampled_from(list(NakReason))),
    st.builds(Heartbeat, seqs, u32),
)
"""Every valid message."""


def frames_of(msgs: list[Message]) -> bytes:
    """The wire bytes of ``msgs``, one frame each."""
    return b"".join(encode_frame(encode(m)) for m in msgs)


# --- messages ---------------------------------------------------------------------------


def test_spec_example_press_payload() -> None:
    assert encode(Press(7, 0, 123456)) == bytes.fromhex("01 02 00 07 00 00 01 E2 40 00")
    assert decode(bytes.fromhex("01 02 00 07 00 00 01 E2 40 00")) == Press(7, 0, 123456)


def test_press_with_times_and_set_layouts() -> None:
    raw = encode(Press(1, 1, 5, (1000, -2)))
    assert raw == bytes.fromhex("01 02 00 01 01 00000005 01 000003e8 fffffffe")
    assert encode(Set(2, (1, 2), None, True)) == bytes.fromhex(
        "01 05 00 02 00000001 00000002 ff 01"
    )
    assert decode(encode(Set(2, (1, 2), None, True))) == Set(2, (1, 2), None, True)
    assert NO_SIDE == 0xFF


@given(messages)
def test_binary_round_trip(msg: Message) -> None:
    assert decode(encode(msg)) == msg


@given(messages)
def test_json_round_trip(msg: Message) -> None:
    data = to_json(msg)
    doc = json.loads(data)
    assert doc["v"] == PROTOCOL_VERSION
    assert doc["type"] == MessageType[doc["type"].upper()].name.lower()
    assert from_json(data) == msg


def test_json_spec_examples() -> None:
    press = from_json(
        b'{"v":1,"type":"press","seq":7,"side":0,"device_ms":123456,'
        b'"remaining_ms":[1410000,1378500]}'
    )
    assert press == Press(7, 0, 123456, (1410000, 1378500))
    st_ = from_json(
        b'{"v":1,"type":"set","seq":12,"remaining_ms":[1410000,1378500],"running":1,"paused":false}'
    )
    assert st_ == Set(12, (1410000, 1378500), 1, False)


def test_needs_ack() -> None:
    assert needs_ack(Press(1, 0, 0))
    assert needs_ack(Hello(1, "x", 0))
    assert not needs_ack(Ack(1, 1))
    assert not needs_ack(Nak(1, 1, NakReason.BUSY))
    assert not needs_ack(Heartbeat(1))


# Each bad payload and the offset its error must report.
BAD_PAYLOADS = [
    (b"", 0, 3),
    (b"\x01\x02\x00", 3, 3),
    (b"\x02\x02\x00\x01", 0, 4),  # unsupported version
    (b"\x01\x7f\x00\x01", 1, 2),  # unknown type
    (b"\x01\x01\x00\x01\x01\x00", 6, 3),  # HELLO body short
    (b"\x01\x01\x00\x01\x01\x00\x00\x03ab", 10, 3),  # HELLO id shorter than its length
    (b"\x01\x01\x00\x01\x01\x00\x00\x01\xff", 8, 3),  # HELLO id not UTF-8
    (b"\x01\x02\x00\x01\x00", 5, 3),  # PRESS short
    (b"\x01\x02\x00\x01\x02\x00\x00\x00\x00\x00", 4, 3),  # PRESS side 2
    (b"\x01\x02\x00\x01\x00\x00\x00\x00\x00\x07", 9, 3),  # PRESS flags 7
    (b"\x01\x02\x00\x01\x00\x00\x00\x00\x00\x00\x00", 10, 3),  # PRESS, extra byte
    (b"\x01\x02\x00\x01\x00\x00\x00\x00\x00\x01\x00", 11, 3),  # PRESS times missing
    (b"\x01\x03\x00\x01\x00", 4, 3),  # PAUSE with a body
    (b"\x01\x04\x00\x01" + bytes(8), 12, 3),  # STATE short
    (b"\x01\x04\x00\x01" + bytes(8) + b"\x02", 12, 3),  # STATE running 2
    (b"\x01\x05\x00\x01" + bytes(8) + b"\x00\x02", 13, 3),  # SET paused 2
    (b"\x01\x05\x00\x01" + bytes(8) + b"\x05\x00", 12, 3),  # SET running 5
    (b"\x01\x05\x00\x01" + bytes(11), 14, 3),  # SET long
    (b"\x01\x06\x00\x01", 4, 3),  # TEXT without length
    (b"\x01\x06\x00\x01\x41" + bytes(65), 4, 3),  # TEXT of 65
    (b"\x01\x06\x00\x01\x03ab", 7, 3),  # TEXT short
    (b"\x01\x06\x00\x01\x02a\xff", 6, 3),  # TEXT not UTF-8
    (b"\x01\x07\x00\x01\x00", 5, 3),  # BEEP short
    (b"\x01\x08\x00\x01\x00", 5, 3),  # ACK short
    (b"\x01\x09\x00\x01\x00\x01", 6, 3),  # NAK short
    (b"\x01\x09\x00\x01\x00\x01\x09", 6, 3),  # NAK reason 9
    (b"\x01\x0a\x00\x01\x00\x00\x00\x00\x00", 8, 3),  # HEARTBEAT long
]


@pytest.mark.parametrize(("payload", "offset", "nak"), BAD_PAYLOADS)
def test_every_decode_error_reports_its_offset(payload: bytes, offset: int, nak: int) -> None:
    with pytest.raises(ProtocolError) as info:
        decode(payload)
    assert info.value.offset == offset, str(info.value)
    assert info.value.nak == nak
    assert f"(at byte {offset})" in str(info.value)


@given(st.binary(max_size=40))
def test_decode_errors_point_inside_the_payload(payload: bytes) -> None:
    try:
        decode(payload)
    except ProtocolError as exc:
        error: ProtocolError | None = exc
    else:
        error = None
    if error is not None:
        assert 0 <= error.offset <= len(payload)
        assert error.nak in {r.value for r in NakReason}


BAD_JSON = [
    (b"{", 1),
    (b'{"v":1,', 7),
    (b"\xff", 0),
    (b"[]", 0),
    (b'{"v":2,"type":"pause","seq":1}', 0),
    (b'{"v":true,"type":"pause","seq":1}', 0),
    (b'{"v":1,"type":"nope","seq":1}', 0),
    (b'{"v":1,"type":"pause","seq":70000}', 0),
    (b'{"v":1,"type":"pause","seq":true}', 0),
    (b'{"v":1,"type":"press","seq":1,"side":2,"device_ms":0}', 0),
    (b'{"v":1,"type":"set","seq":1,"remaining_ms":[1],"running":0,"paused":false}', 0),
    (b'{"v":1,"type":"set","seq":1,"remaining_ms":[1,2],"running":0,"paused":0}', 0),
    (b'{"v":1,"type":"state","seq":1,"remaining_ms":[1,2],"running":3}', 0),
    (b'{"v":1,"type":"state","seq":1,"remaining_ms":[1,4294967296],"running":0}', 0),
    (b'{"v":1,"type":"text","seq":1,"text":"' + b"x" * 65 + b'"}', 0),
    (b'{"v":1,"type":"text","seq":1,"text":"\\ud800"}', 0),
    (b'{"v":1,"type":"hello","seq":1,"device_id":5,"capabilities":0,"version":1}', 0),
    (b'{"v":1,"type":"nak","seq":1,"nakked":1,"reason":"sorry"}', 0),
    (b"[" * 100_000, 0),
    (b'{"v":1,"type":"ack","seq":1,"acked":' + b"9" * 5000 + b"}", 0),
]


@pytest.mark.parametrize(("data", "offset"), BAD_JSON)
def test_every_json_error_is_a_protocol_error_with_offset(data: bytes, offset: int) -> None:
    with pytest.raises(ProtocolError) as info:
        from_json(data)
    assert info.value.offset == offset


@pytest.mark.parametrize(
    "msg",
    [
        Press(1, 2, 0),
        Set(1, (0, 0), 3, False),
        State(1, (2**31, 0), 0),
        Text(1, "x" * 65),
        Text(1, "\ud800"),
        Hello(1, "\udfff", 0),
        Hello(1, "x" * 256, 0),
        Beep(1, 70_000),
        Ack(1, -1),
        Ack(70_000, 1),
    ],
)
def test_encode_refuses_fields_out_of_range(msg: Message) -> None:
    with pytest.raises(ProtocolError):
        encode(msg)


# --- framing ------------------------------------------------------------------------------


def test_crc_check_value() -> None:
    assert crc16(b"123456789") == 0x29B1
    assert crc16(b"123456789") == binascii.crc_hqx(b"123456789", 0xFFFF)


def test_cobs_known_vectors() -> None:
    assert cobs_encode(b"") == b"\x01"
    assert cobs_encode(b"\x00") == b"\x01\x01"
    assert cobs_encode(b"\x11\x00\x22") == b"\x02\x11\x02\x22"
    block = bytes(range(1, 255))  # 254 non-zero bytes: one full block
    assert cobs_encode(block) == b"\xff" + block + b"\x01"
    assert cobs_decode(b"\xff" + block + b"\x01") == block
    assert cobs_decode(b"\xff" + block) == block


@given(st.binary(max_size=1200))
def test_cobs_round_trip_has_no_zero(data: bytes) -> None:
    enc = cobs_encode(data)
    assert 0 not in enc
    assert len(enc) <= len(data) + len(data) // 254 + 1
    assert cobs_decode(enc) == data


@pytest.mark.parametrize(
    ("raw", "where"),
    [(b"\x03\x11", "runs past"), (b"\x02\x00", "zero byte"), (b"\x00", "zero byte")],
)
def test_cobs_decode_errors(raw: bytes, where: str) -> None:
    with pytest.raises(ValueError, match=where):
        cobs_decode(raw)


@given(st.lists(messages, min_size=1, max_size=8), st.data())
@settings(suppress_health_check=[HealthCheck.too_slow])
def test_frames_cut_at_random_points(msgs: list[Message], data: st.DataObject) -> None:
    wire = frames_of(msgs)
    cuts = sorted(data.draw(st.lists(st.integers(0, len(wire)), max_size=10)))
    dec = FrameDecoder()
    got: list[bytes | FrameError] = []
    last = 0
    for cut in [*cuts, len(wire)]:
        got += dec.feed(wire[last:cut])
        last = cut
    assert got == [encode(m) for m in msgs]
    assert dec.frames == len(msgs)
    assert dec.errors == 0


def test_decoder_error_paths_report_stream_offsets() -> None:
    good = encode_frame(encode(Pause(1)))
    bad_crc = bytearray(good)
    bad_crc[2] ^= 0x01
    too_long = b"\x01" * (MAX_FRAME + 5) + b"\x00"
    short = cobs_encode(b"\x01\x02") + b"\x00"
    bad_cobs = b"\x05\x01\x00"
    stream = b"\x00\x00" + bytes(bad_crc) + too_long + short + bad_cobs + good
    dec = FrameDecoder()
    out = dec.feed(stream)
    errors = [o for o in out if isinstance(o, FrameError)]
    assert [e.offset for e in errors] == [
        2,
        2 + len(good),
        2 + len(good) + len(too_long),
        2 + len(good) + len(too_long) + len(short),
    ]
    assert "CRC mismatch" in errors[0].reason
    assert "longer than" in errors[1].reason
    assert "too short" in errors[2].reason
    assert "COBS" in errors[3].reason
    assert out[-1] == encode(Pause(1))
    assert dec.errors == 4
    assert dec.frames == 1


def test_over_long_frame_is_skipped_to_the_next_zero() -> None:
    dec = FrameDecoder()
    good = encode_frame(encode(Beep(3, 100)))
    out = dec.feed(b"\x02" * 600)
    assert len(out) == 1
    assert isinstance(out[0], FrameError)
    # the rest of the long frame, then its zero: nothing more reported
    assert dec.feed(b"\x02" * 50 + b"\x00") == []
    assert dec.feed(good) == [encode(Beep(3, 100))]


# --- the link -------------------------------------------------------------------------------


def _pair() -> tuple[Link, Link]:
    return Link(0), Link(0)


def _msgs(data: bytes) -> list[Message]:
    out: list[Message] = []
    for item in FrameDecoder().feed(data):
        assert not isinstance(item, FrameError)
        out.append(decode(item))
    return out


def test_link_delivers_acks_and_drops_duplicates() -> None:
    dev, host = _pair()
    wire = dev.send(Press(0, 1, 42), 0)
    got, reply = host.receive(wire, 1)
    assert got == [Press(1, 1, 42)]
    assert _msgs(reply) == [Ack(1, 1)]
    # the same frame again (its ACK was lost): ACKed again, not delivered
    got, reply = host.receive(wire, 2)
    assert got == []
    assert [type(m) for m in _msgs(reply)] == [Ack]
    assert host.stats.duplicates == 1
    assert dev.pending() == 1
    dev.receive(reply, 3)
    assert dev.pending() == 0


def test_the_host_acks_a_press_only_when_told_it_is_on_disk() -> None:
    dev, host = Link(0), Link(0, defer_durable=True)
    wire = dev.send(Press(0, 1, 42), 0)
    got, reply = host.receive(wire, 1)
    assert got == [Press(1, 1, 42)]
    assert reply == b""  # not on disk yet
    assert host.awaiting() == 1
    # the device repeats it meanwhile: not delivered again, not answered yet
    got, reply = host.receive(dev.poll(RETRY_MS), RETRY_MS + 1)
    assert (got, reply) == ([], b"")
    assert host.stats.duplicates == 1
    # committed: one ACK, and the device stops repeating
    dev.receive(host.ack(1, 110), 111)
    assert dev.pending() == 0
    assert host.awaiting() == 0
    assert host.ack(1, 112) == b""  # answered once
    # a repeat after that (the ACK was lost) is answered at once
    _, reply = host.receive(wire, 120)
    assert [type(m) for m in _msgs(reply)] == [Ack]
    # a HELLO (a new session) forgets what was awaited: its ACK would name another press
    host.receive(dev.send(Press(0, 0, 43), 130), 131)
    host.receive(dev.send(Hello(0, "d", 0), 140), 141)
    assert host.awaiting() == 0
    # other messages are answered on arrival
    _, reply = host.receive(dev.send(State(0, (1, 2), 0), 150), 151)
    assert [type(m) for m in _msgs(reply)] == [Ack]


def test_heartbeats_give_the_host_the_devices_time() -> None:
    dev, host = Link(0), Link(0)
    seen: list[tuple[int, int]] = []
    host.on_peer_time = lambda now, ms: seen.append((now, ms))
    host.receive(dev.poll(HEARTBEAT_MS, device_ms=4_242), HEARTBEAT_MS + 1)
    assert seen == [(HEARTBEAT_MS + 1, 4_242)]


def test_link_retransmits_every_100_ms_then_gives_up() -> None:
    dev = Link(0)
    dev.send(Press(0, 0, 1), 0)
    assert dev.poll(RETRY_MS - 1) == b""
    sent = [dev.poll(RETRY_MS * k) for k in range(1, MAX_RETRIES + 2)]
    assert all(_msgs(s) == [Press(1, 0, 1)] for s in sent[:MAX_RETRIES])
    assert dev.stats.retransmits == MAX_RETRIES
    assert Press(1, 0, 1) not in _msgs(sent[MAX_RETRIES])
    assert dev.stats.given_up == 1
    assert dev.pending() == 0


def test_link_naks_a_bad_payload_and_the_sender_stops() -> None:
    dev, host = _pair()
    dev.send(Press(0, 0, 1), 0)
    bogus = encode_frame(b"\x01\x02\x00\x01\x05")  # a PRESS that is too short, seq 1
    got, reply = host.receive(bogus, 1)
    assert got == []
    assert _msgs(reply) == [Nak(1, 1, NakReason.BAD_PAYLOAD)]
    assert host.stats.payloads_bad == 1
    dev.receive(reply, 2)
    assert dev.pending() == 0
    assert dev.stats.naks_in == 1
    unknown = encode_frame(b"\x01\x7f\x00\x09")
    _, reply = host.receive(unknown, 3)
    assert _msgs(reply) == [Nak(2, 9, NakReason.UNKNOWN_TYPE)]


def test_link_corrupt_crc_is_ignored_and_the_retransmission_gets_through() -> None:
    dev, host = _pair()
    wire = bytearray(dev.send(Pause(0), 0))
    wire[3] ^= 0x40
    got, reply = host.receive(bytes(wire), 1)
    assert got == []
    assert reply == b""
    assert host.stats.frames_bad == 1
    got, _ = host.receive(dev.poll(RETRY_MS), RETRY_MS)
    assert got == [Pause(1)]


def test_link_heartbeat_and_loss() -> None:
    dev, host = _pair()
    assert host.poll(HEARTBEAT_MS - 1) == b""
    beat = host.poll(HEARTBEAT_MS)
    assert [type(m) for m in _msgs(beat)] == [Heartbeat]
    assert dev.poll(HEARTBEAT_MS, device_ms=77) != b""
    got, reply = dev.receive(beat, 900)
    assert got == []
    assert reply == b""  # heartbeats are not acknowledged
    assert dev.alive(900 + LOST_AFTER_MS - 1)
    assert not dev.alive(900 + LOST_AFTER_MS)
    assert dev.ever_heard
    assert not Link(0).ever_heard


def test_hello_starts_a_new_session_for_dedup() -> None:
    host = Link(0)
    first = Link(0, session=7)
    host.receive(first.send(Hello(0, "c", 0), 0), 0)
    got, _ = host.receive(first.send(Press(0, 0, 1), 0), 0)
    assert got == [Press(2, 0, 1)]
    # the device resets: its counter starts at 1 again, in a new session
    again = Link(0, session=8)
    got, _ = host.receive(again.send(Hello(0, "c", 0), 10), 10)
    assert got == [Hello(1, "c", 0, session=8)]
    got, _ = host.receive(again.send(Press(0, 1, 2), 10), 10)
    assert got == [Press(2, 1, 2)]


def test_a_hello_sent_again_in_the_same_session_resets_nothing() -> None:
    # Lost ACKs: the device sends its HELLO again, then repeats a press the host has.
    host, dev = Link(0), Link(0, session=41)
    hello = dev.send(Hello(0, "c", 0), 0)
    host.receive(hello, 1)
    press = dev.send(Press(0, 0, 5), 2)
    got, _ = host.receive(press, 3)
    assert got == [Press(2, 0, 5)]
    got, reply = host.receive(hello, 4)  # the same HELLO again: a repeat, ACKed
    assert got == []
    assert [type(m) for m in _msgs(reply)] == [Ack]
    resent = dev.send(Hello(0, "c", 0), 5)  # a fresh HELLO frame, the same session
    got, _ = host.receive(resent, 6)
    assert got == [Hello(3, "c", 0, session=41)]
    got, _ = host.receive(press, 7)  # the press repeated: still a duplicate
    assert got == []
    assert host.stats.duplicates == 2


def test_the_host_restarting_its_counter_tells_the_device() -> None:
    # The host reopens the port on its own: a new Link, seq from 1, and its HELLO in a
    # new session, so the device's window does not drop the next SETs as repeats.
    dev = Link(0)
    old = Link(0, session=1)
    dev.receive(old.send(Hello(0, "rackclock", 0), 0), 0)
    for i in range(5):
        got, _ = dev.receive(old.send(Set(0, (i, i), 0, False), i), i)
        assert len(got) == 1
    new = Link(0, session=2)
    got, _ = dev.receive(new.send(Hello(0, "rackclock", 0), 10), 10)
    assert got == [Hello(1, "rackclock", 0, session=2)]
    got, _ = dev.receive(new.send(Set(0, (9, 9), 1, False), 11), 11)
    assert got == [Set(2, (9, 9), 1, False)]  # seq 2 was seen before: taken all the same


def test_a_hello_without_a_session_still_decodes() -> None:
    # A device that predates sessions sends no session bytes: read as session 0.
    legacy = bytes([1, 0x01, 0, 1, 1, 0, 0x0F, 1]) + b"c"
    assert decode(legacy) == Hello(1, "c", 0x0F, 1, 0)
    assert decode(encode(Hello(1, "c", 0x0F, session=9))) == Hello(1, "c", 0x0F, 1, 9)
    legacy_json = b'{"v":1,"type":"hello","seq":1,"device_id":"c","capabilities":0,"version":1}'
    assert from_json(legacy_json) == Hello(1, "c", 0)


def test_link_seq_wraps_to_zero() -> None:
    link = Link(0)
    assert [link.next_seq() for _ in range(0xFFFE)][-1] == 0xFFFE  # a new link counts from 1
    assert link.next_seq() == 0xFFFF
    assert link.next_seq() == 0
    assert link.next_seq() == 1
