//! Names for the things in the simulation: nodes, clients, fencing tokens, messages.

use core::fmt;

/// A lock client, numbered from 0; client 0 is "A", client 1 is "B", and so on.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct ClientId(pub u8);

impl ClientId {
    /// Client A, the first holder in every preset.
    pub const A: ClientId = ClientId(0);
    /// Client B, the contender in every preset.
    pub const B: ClientId = ClientId(1);
    /// The index into per-client arrays.
    pub const fn index(self) -> usize {
        self.0 as usize
    }
    /// The letter a view shows ("A", "B", …).
    pub fn letter(self) -> char {
        (b'A' + self.0.min(25)) as char
    }
}

impl fmt::Display for ClientId {
    /// Prints "A", "B", …
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

/// A participant: the lock service, the storage, or a client.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum NodeId {
    /// The authoritative lock service (etcd, Redis, Consul, Chubby…).
    Service,
    /// The storage that the clients write to, and that checks fencing tokens.
    Storage,
    /// One lock client.
    Client(ClientId),
}

impl NodeId {
    /// A dense index: service 0, storage 1, client i at 2 + i.
    pub const fn index(self) -> usize {
        match self {
            NodeId::Service => 0,
            NodeId::Storage => 1,
            NodeId::Client(c) => 2 + c.0 as usize,
        }
    }

    /// True if this node exists in a scenario of `clients` clients.
    pub const fn is_known(self, clients: u8) -> bool {
        match self {
            NodeId::Client(c) => c.0 < clients,
            _ => true,
        }
    }
}

/// A fencing token: the lock service hands out strictly increasing ones, and storage
/// refuses a write whose token is below the highest it has accepted.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct FencingToken(pub u64);

impl fmt::Display for FencingToken {
    /// Prints the bare number, as the lesson does ("token 33").
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

/// Identifies one packet on the network, in send order.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct MsgId(pub u32);

/// Identifies one request of one client, so replies to old attempts are recognised.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct RequestId(pub u32);
