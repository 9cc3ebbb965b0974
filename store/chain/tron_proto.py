"""TRON's transaction messages, as classes of the ``protobuf`` library built at import.

TRON's ``.proto`` definitions ship with tronpy, which cannot be installed beside eth-account (tronpy
pins eth-abi < 6, the EVM libraries here need eth-abi 6), so the part of them a TRX or TRC20 transfer
uses is declared here, with TRON's own package, message and field names and numbers (protocol/
``core/Tron.proto``: ``Transaction``, ``Transaction.raw``, ``Transaction.Contract``, ``authority``,
``AccountId``; ``core/contract/balance_contract.proto``: ``TransferContract``;
``core/contract/smart_contract.proto``: ``TriggerSmartContract``), and the contract's parameter is
``google.protobuf.Any`` itself. The library reads and writes the wire format; what is declared only
decides which numbers have names. ``Transaction.raw`` declares ``auths``, ``data`` (the memo) and
``scripts`` so that a transaction carrying them is refused by name (store/chain/tron_signing.py);
anything else a node might add arrives as an unknown field, which is refused too.
``Transaction.ret`` (results a node adds to a mined transaction) is left out: nothing here reads it.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import any_pb2, descriptor_pb2, descriptor_pool, message_factory
from google.protobuf.message import Message

_F = descriptor_pb2.FieldDescriptorProto
_TYPES = {"bytes": _F.TYPE_BYTES, "int32": _F.TYPE_INT32, "int64": _F.TYPE_INT64, "string": _F.TYPE_STRING}

# Field name, number and type (a scalar, or a message or enum's full name); "repeated " before the type.
# fmt: off
_LAYOUT: dict[str, list[tuple[str, int, str]]] = {
    "AccountId": [("name", 1, "bytes"), ("address", 2, "bytes")],
    "authority": [("account", 1, ".protocol.AccountId"), ("permission_name", 2, "bytes")],
    "Transaction": [("raw_data", 1, ".protocol.Transaction.raw"), ("signature", 2, "repeated bytes")],
    "Transaction.Contract": [("type", 1, "enum .protocol.Transaction.Contract.ContractType"),
                             ("parameter", 2, ".google.protobuf.Any"), ("provider", 3, "bytes"),
                             ("ContractName", 4, "bytes"), ("Permission_id", 5, "int32")],
    "Transaction.raw": [("ref_block_bytes", 1, "bytes"), ("ref_block_num", 3, "int64"),
                        ("ref_block_hash", 4, "bytes"), ("expiration", 8, "int64"),
                        ("auths", 9, "repeated .protocol.authority"), ("data", 10, "bytes"),
                        ("contract", 11, "repeated .protocol.Transaction.Contract"), ("scripts", 12, "bytes"),
                        ("timestamp", 14, "int64"), ("fee_limit", 18, "int64")],
    "TransferContract": [("owner_address", 1, "bytes"), ("to_address", 2, "bytes"), ("amount", 3, "int64")],
    "TriggerSmartContract": [("owner_address", 1, "bytes"), ("contract_address", 2, "bytes"),
                             ("call_value", 3, "int64"), ("data", 4, "bytes"), ("call_token_value", 5, "int64"),
                             ("token_id", 6, "int64")],
}
# fmt: on
# Transaction.Contract.ContractType: the two used here (proto3 enums are open: another number still
# reads, as itself). Every proto3 enum starts at 0.
CONTRACT_TYPES = {"AccountCreateContract": 0, "TransferContract": 1, "TriggerSmartContract": 31}


def _file() -> descriptor_pb2.FileDescriptorProto:
    proto = descriptor_pb2.FileDescriptorProto(name="store/chain/tron.proto", package="protocol", syntax="proto3",
                                               dependency=[any_pb2.DESCRIPTOR.name])  # fmt: skip
    messages: dict[str, descriptor_pb2.DescriptorProto] = {}
    for name, fields in _LAYOUT.items():  # outer messages before the ones nested in them
        outer, _, inner = name.rpartition(".")
        message = (messages[outer].nested_type if outer else proto.message_type).add(name=inner)
        messages[name] = message
        for field_name, number, kind in fields:
            entry = message.field.add(name=field_name, number=number, label=_F.LABEL_OPTIONAL)
            if kind.startswith("repeated "):
                entry.label, kind = _F.LABEL_REPEATED, kind.removeprefix("repeated ")
            if kind in _TYPES:
                entry.type = _TYPES[kind]
            elif kind.startswith("enum "):
                entry.type, entry.type_name = _F.TYPE_ENUM, kind.removeprefix("enum ")
            else:
                entry.type, entry.type_name = _F.TYPE_MESSAGE, kind
    contract_type = messages["Transaction.Contract"].enum_type.add(name="ContractType")
    for name, number in CONTRACT_TYPES.items():
        contract_type.value.add(name=name, number=number)
    return proto


def _classes() -> dict[str, type[Message]]:
    pool = descriptor_pool.DescriptorPool()  # its own pool: nothing else registered can clash with it
    pool.Add(descriptor_pb2.FileDescriptorProto.FromString(any_pb2.DESCRIPTOR.serialized_pb))
    pool.Add(_file())
    return {name: message_factory.GetMessageClass(pool.FindMessageTypeByName(f"protocol.{name}")) for name in _LAYOUT}


_CLASSES = _classes()
Transaction: Any = _CLASSES["Transaction"]
Raw: Any = _CLASSES["Transaction.raw"]
Contract: Any = _CLASSES["Transaction.Contract"]
TransferContract: Any = _CLASSES["TransferContract"]
TriggerSmartContract: Any = _CLASSES["TriggerSmartContract"]


def type_url(message: type[Message]) -> str:
    """What a ``google.protobuf.Any`` holding a ``message`` names it: ``type.googleapis.com/protocol.…``."""
    return "type.googleapis.com/" + message.DESCRIPTOR.full_name
