//! Packs checked by git itself: `verify-pack`, `fsck --strict` and `cat-file` read what was written.

use std::path::Path;
use std::process::Command;

use super::*;

fn git(dir: &Path, args: &[&str]) -> String {
    let out = Command::new("git").args(args).current_dir(dir).output().unwrap_or_else(|e| panic!("{e}"));
    assert!(out.status.success(), "git {args:?}: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn store() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap_or_else(|e| panic!("{e}"));
    git(dir.path(), &["init", "-q", "--bare"]);
    dir
}

fn packs(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir.join("objects/pack"))
        .map(|entries| entries.flatten().map(|e| e.file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    names.sort();
    names
}

/// A tree naming `blobs` (name, id) as files.
fn tree_of(blobs: &[(&str, String)]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut sorted = blobs.to_vec();
    sorted.sort();
    for (name, oid) in sorted {
        out.extend_from_slice(format!("100644 {name}\0").as_bytes());
        let mut raw = [0u8; 20];
        hex::decode_to_slice(oid, &mut raw).unwrap_or_else(|e| panic!("{e}"));
        out.extend_from_slice(&raw);
    }
    out
}

fn no_loose(kind: Kind, _: &[u8]) -> Result<(), CheckpointError> {
    panic!("a {} was to be written loose", kind.name())
}

#[test]
fn git_reads_every_object_of_a_pack_and_finds_it_sound() {
    let dir = store();
    let pack = Pack::new(&dir.path().join("objects"), false);
    // Sizes that take one, two and three header bytes, an empty blob, and 300 small ones so
    // that most of the fan-out table's 256 slots are used.
    let mut contents: Vec<Vec<u8>> =
        vec![Vec::new(), b"short".to_vec(), vec![b'x'; 2_000], vec![7u8; 300_000]];
    contents.extend((0..300).map(|n| format!("file {n}\n").into_bytes()));
    let mut ids = Vec::new();
    for bytes in &contents {
        ids.push(pack.add(Packed::new(Kind::Blob, bytes.clone())).unwrap_or_else(|e| panic!("{e}")));
    }
    let tree = tree_of(&[("a", ids[1].clone()), ("b", ids[2].clone())]);
    let tree_id = pack.add(Packed::new(Kind::Tree, tree)).unwrap_or_else(|e| panic!("{e}"));
    pack.finish(no_loose).unwrap_or_else(|e| panic!("{e}"));

    let names = packs(dir.path());
    assert_eq!(names.len(), 2, "{names:?}");
    let idx = dir.path().join("objects/pack").join(&names[0]);
    let verified = git(dir.path(), &["verify-pack", "-v", &idx.to_string_lossy()]);
    assert!(verified.contains(&format!("{tree_id} tree")), "{verified}");
    for (bytes, id) in contents.iter().zip(&ids) {
        let hashed = Command::new("git")
            .args(["hash-object", "--stdin"])
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .spawn()
            .and_then(|mut child| {
                child.stdin.take().map(|mut s| s.write_all(bytes));
                child.wait_with_output()
            })
            .unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(String::from_utf8_lossy(&hashed.stdout).trim(), id);
        let size = git(dir.path(), &["cat-file", "-s", id]);
        assert_eq!(size.trim(), bytes.len().to_string());
    }
    assert_eq!(git(dir.path(), &["cat-file", "-p", &format!("{tree_id}:a")]), "short");
    git(dir.path(), &["update-ref", "refs/checkpoints/t", &tree_id]);
    git(dir.path(), &["fsck", "--strict", "--no-dangling"]);
}

#[test]
fn an_object_added_twice_is_packed_once() {
    let dir = store();
    let pack = Pack::new(&dir.path().join("objects"), false);
    let first = pack.add(Packed::new(Kind::Blob, b"same".to_vec())).unwrap_or_else(|e| panic!("{e}"));
    for n in 0..=LOOSE_UP_TO {
        pack.add(Packed::new(Kind::Blob, format!("{n}").into_bytes())).unwrap_or_else(|e| panic!("{e}"));
    }
    let second = pack.add(Packed::new(Kind::Blob, b"same".to_vec())).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(first, second);
    pack.finish(no_loose).unwrap_or_else(|e| panic!("{e}"));
    let idx = dir.path().join("objects/pack").join(&packs(dir.path())[0]);
    let verified = git(dir.path(), &["verify-pack", "-v", &idx.to_string_lossy()]);
    assert_eq!(verified.matches(first.as_str()).count(), 1, "{verified}");
}

#[test]
fn an_empty_pack_writes_nothing_and_an_unfinished_one_leaves_nothing() {
    let dir = store();
    Pack::new(&dir.path().join("objects"), false).finish(no_loose).unwrap_or_else(|e| panic!("{e}"));
    assert!(packs(dir.path()).is_empty());
    let pack = Pack::new(&dir.path().join("objects"), false);
    let mut ids = Vec::new();
    for n in 0..=LOOSE_UP_TO {
        let bytes = format!("never finished {n}").into_bytes();
        ids.push(pack.add(Packed::new(Kind::Blob, bytes)).unwrap_or_else(|e| panic!("{e}")));
    }
    let id = &ids[0];
    drop(pack);
    assert!(packs(dir.path()).is_empty(), "{:?}", packs(dir.path()));
    let missing = Command::new("git").args(["cat-file", "-e", id]).current_dir(dir.path()).status();
    assert!(!missing.unwrap_or_else(|e| panic!("{e}")).success());
}

#[test]
fn entry_headers_carry_the_size_seven_bits_a_byte() {
    assert_eq!(entry_header(Kind::Blob, 5), vec![0x35]);
    assert_eq!(entry_header(Kind::Tree, 16), vec![0xa0, 0x01]);
    assert_eq!(entry_header(Kind::Blob, 300_000), vec![0xb0, 0xbe, 0x92, 0x01]);
}

#[test]
fn a_small_batch_is_written_loose() {
    let dir = store();
    let pack = Pack::new(&dir.path().join("objects"), false);
    for n in 0..LOOSE_UP_TO {
        pack.add(Packed::new(Kind::Blob, format!("{n}").into_bytes())).unwrap_or_else(|e| panic!("{e}"));
    }
    let written = std::sync::Mutex::new(Vec::new());
    pack.finish(|kind, content| {
        written.lock().unwrap_or_else(|e| panic!("{e}")).push((kind, content.to_vec()));
        Ok(())
    })
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(packs(dir.path()).is_empty());
    let written = written.into_inner().unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(written.len(), LOOSE_UP_TO);
    assert_eq!(written[3], (Kind::Blob, b"3".to_vec()));
}

#[test]
fn a_pack_leaves_out_what_the_store_already_holds() {
    let dir = store();
    std::fs::write(dir.path().join("held"), "held\n").unwrap_or_else(|e| panic!("{e}"));
    let held = git(dir.path(), &["hash-object", "-w", "held"]);
    let pack = Pack::new(&dir.path().join("objects"), true);
    let again = pack.add(Packed::new(Kind::Blob, b"held\n".to_vec())).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(again, held.trim());
    for n in 0..=LOOSE_UP_TO {
        pack.add(Packed::new(Kind::Blob, format!("{n}").into_bytes())).unwrap_or_else(|e| panic!("{e}"));
    }
    pack.finish(no_loose).unwrap_or_else(|e| panic!("{e}"));
    let idx = dir.path().join("objects/pack").join(&packs(dir.path())[0]);
    let verified = git(dir.path(), &["verify-pack", "-v", &idx.to_string_lossy()]);
    assert!(!verified.contains(held.trim()), "{verified}");
    assert_eq!(verified.lines().filter(|l| l.contains(" blob ")).count(), LOOSE_UP_TO + 1, "{verified}");
}

#[test]
fn housekeeping_tidies_what_a_killed_writer_left_and_counts_packs() {
    let dir = store();
    let objects = dir.path().join("objects");
    let pack_dir = objects.join("pack");
    std::fs::create_dir_all(&pack_dir).unwrap_or_else(|e| panic!("{e}"));
    let old = pack_dir.join("tmp_pack_left");
    let fresh = pack_dir.join("tmp_pack_writing");
    for path in [&old, &fresh] {
        std::fs::write(path, "PACK").unwrap_or_else(|e| panic!("{e}"));
    }
    let two_hours_ago = std::time::SystemTime::now() - std::time::Duration::from_secs(7200);
    std::fs::File::options()
        .write(true)
        .open(&old)
        .and_then(|file| file.set_modified(two_hours_ago))
        .unwrap_or_else(|e| panic!("{e}"));
    assert!(!tidy(&objects));
    assert!(!old.exists(), "a writer killed an hour ago left it");
    assert!(fresh.exists(), "a writer may still be writing it");
    for n in 0..=MAX_PACKS {
        std::fs::write(pack_dir.join(format!("pack-{n}.idx")), "").unwrap_or_else(|e| panic!("{e}"));
    }
    assert!(tidy(&objects));
}
