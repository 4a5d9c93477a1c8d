//! The stores' schemas as numbered migrations, each applied once, in
//! order, by the service at start: SQLite counts them in `user_version`,
//! PostgreSQL in `schema_migrations` (under a lock, so that instances
//! starting together apply each once).

/// One step of a schema.
#[derive(Debug, Clone, Copy)]
pub struct Migration {
    pub version: u32,
    pub name: &'static str,
    pub sql: &'static str,
}

/// The SQLite store's schema.
pub const SQLITE: &[Migration] = &[
    Migration {
        version: 1,
        name: "record",
        sql: include_str!("../migrations/sqlite/001_record.sql"),
    },
    Migration {
        version: 2,
        name: "leases",
        sql: include_str!("../migrations/sqlite/002_leases.sql"),
    },
];

/// The PostgreSQL store's schema.
pub const POSTGRES: &[Migration] = &[
    Migration {
        version: 1,
        name: "record",
        sql: include_str!("../migrations/postgres/001_record.sql"),
    },
    Migration {
        version: 2,
        name: "instances",
        sql: include_str!("../migrations/postgres/002_instances.sql"),
    },
];

/// The migrations of `all` a schema at `version` still lacks, in order.
pub fn pending(
    all: &'static [Migration],
    version: u32,
) -> impl Iterator<Item = &'static Migration> {
    all.iter().filter(move |m| m.version > version)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn versions_count_up_from_one_without_gaps() {
        for all in [SQLITE, POSTGRES] {
            let versions: Vec<u32> = all.iter().map(|m| m.version).collect();
            assert_eq!(versions, (1..=all.len() as u32).collect::<Vec<_>>());
        }
        assert_eq!(
            pending(SQLITE, 1).map(|m| m.version).collect::<Vec<_>>(),
            [2]
        );
    }
}
