//! The open connections of one server and who may be shed. A connection is *unproven*
//! until it has delivered a whole request that passed the bearer check; when the table
//! is full, or the process runs out of descriptors, the oldest unproven connection is
//! closed to make room. So idle or half-sent sockets (anyone who can reach the port can
//! open them) never crowd out a client holding the token: a new connection is refused
//! only when every slot is held by a proven client.
//!
//! Written here because nothing in the stack does it: hyper's header-read timer (used,
//! `http.rs`) closes a slow connection only after its timeout, tower's
//! `ConcurrencyLimit` bounds requests in flight rather than open sockets and makes the
//! newcomer wait instead of shedding anyone, and hyper-util has no connection cap.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use tokio_util::sync::CancellationToken;

#[derive(Debug)]
pub(super) struct Connections {
    max: usize,
    table: Mutex<Table>,
}

#[derive(Debug, Default)]
struct Table {
    next: u64,
    /// By age: the key is the order of arrival.
    open: BTreeMap<u64, Arc<Slot>>,
}

/// One connection's standing, shared with the service answering it.
#[derive(Debug, Default)]
pub(super) struct Slot {
    /// Its number on this server, in order of arrival.
    id: u64,
    proven: AtomicBool,
    shed: CancellationToken,
    /// Cancelled once its task has ended and its socket is closed.
    gone: CancellationToken,
}

impl Slot {
    pub(super) fn id(&self) -> u64 {
        self.id
    }

    /// Called once a request passed the bearer check.
    pub(super) fn prove(&self) {
        self.proven.store(true, Ordering::Relaxed);
    }

    fn is_proven(&self) -> bool {
        self.proven.load(Ordering::Relaxed)
    }

    /// Resolves when the server sheds this connection; its task then drops the socket.
    pub(super) async fn shed(&self) {
        self.shed.cancelled().await;
    }

    /// Resolves once the connection's socket is closed.
    pub(super) async fn gone(&self) {
        self.gone.cancelled().await;
    }
}

/// A place in the table, given back on drop (the connection's task ends).
#[derive(Debug)]
pub(super) struct Admitted {
    id: u64,
    pub(super) slot: Arc<Slot>,
    connections: Arc<Connections>,
}

impl Drop for Admitted {
    fn drop(&mut self) {
        self.connections.lock().open.remove(&self.id);
        self.slot.gone.cancel();
    }
}

/// What happened when a connection asked for a place.
#[derive(Debug)]
pub(super) enum Admission {
    Admitted(Admitted),
    /// The table was full: the oldest unproven connection (the second) was shed for
    /// this one. Its socket closes when its task next runs.
    AdmittedByShedding(Admitted, Arc<Slot>),
    /// Every place is held by a proven client.
    Refused,
}

impl Connections {
    pub(super) fn new(max: usize) -> Arc<Connections> {
        Arc::new(Connections {
            max: max.max(1),
            table: Mutex::new(Table::default()),
        })
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Table> {
        self.table.lock().unwrap_or_else(|e| e.into_inner())
    }

    pub(super) fn admit(self: &Arc<Self>) -> Admission {
        let mut table = self.lock();
        let shed = if table.open.len() >= self.max {
            match shed_oldest_unproven(&mut table) {
                Some(shed) => Some(shed),
                None => return Admission::Refused,
            }
        } else {
            None
        };
        let id = table.next;
        table.next += 1;
        let slot = Arc::new(Slot {
            id,
            ..Slot::default()
        });
        table.open.insert(id, slot.clone());
        let admitted = Admitted {
            id,
            slot,
            connections: self.clone(),
        };
        match shed {
            Some(shed) => Admission::AdmittedByShedding(admitted, shed),
            None => Admission::Admitted(admitted),
        }
    }

    /// Frees a descriptor when `accept` failed for want of one: the connection shed,
    /// `None` when every open connection is proven.
    pub(super) fn shed_one(&self) -> Option<Arc<Slot>> {
        shed_oldest_unproven(&mut self.lock())
    }

    #[cfg(test)]
    fn open(&self) -> usize {
        self.lock().open.len()
    }
}

fn shed_oldest_unproven(table: &mut Table) -> Option<Arc<Slot>> {
    let oldest = table
        .open
        .iter()
        .find(|(_, slot)| !slot.is_proven())
        .map(|(id, _)| *id)?;
    let slot = table.open.remove(&oldest)?;
    slot.shed.cancel();
    Some(slot)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn admitted(admission: Admission) -> Admitted {
        match admission {
            Admission::Admitted(a) | Admission::AdmittedByShedding(a, _) => a,
            Admission::Refused => panic!("refused"),
        }
    }

    #[test]
    fn a_full_table_sheds_the_oldest_unproven_and_never_a_proven_one() {
        let connections = Connections::new(3);
        let client = admitted(connections.admit());
        client.slot.prove();
        let idle_1 = admitted(connections.admit());
        let idle_2 = admitted(connections.admit());
        assert_eq!(connections.open(), 3);

        let newcomer = connections.admit();
        assert!(matches!(newcomer, Admission::AdmittedByShedding(_, _)));
        assert!(idle_1.slot.shed.is_cancelled(), "the oldest unproven goes");
        assert!(!idle_2.slot.shed.is_cancelled());
        assert!(!client.slot.shed.is_cancelled(), "a proven client stays");
        assert_eq!(connections.open(), 3);

        // Every place proven: the next is refused and nobody is shed.
        idle_2.slot.prove();
        let newcomer = admitted(newcomer);
        newcomer.slot.prove();
        assert!(matches!(connections.admit(), Admission::Refused));
        assert!(connections.shed_one().is_none());
        drop(client);
        assert_eq!(
            connections.open(),
            2,
            "a finished connection frees its place"
        );
        assert!(matches!(connections.admit(), Admission::Admitted(_)));
    }
}
