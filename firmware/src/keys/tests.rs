use super::*;
use ed25519_dalek::Signer;
use std::os::unix::fs::PermissionsExt;

/// A fresh empty directory under the system's temporary folder.
fn temp_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("janus-keys-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A PEM file whose DER is `der` with Ed25519's OID replaced by another
/// one of the same length (Ed448, X25519).
fn with_oid(dir: &Path, name: &str, label: &str, der: &[u8], last_oid_byte: u8) -> PathBuf {
    let ed25519 = [0x06, 0x03, 0x2b, 0x65, 0x70];
    let at = der
        .windows(ed25519.len())
        .position(|w| w == ed25519)
        .expect("the DER holds Ed25519's OID");
    let mut der = der.to_vec();
    der[at + 4] = last_oid_byte;
    let path = dir.join(name);
    let text = pem::encode_string(label, LineEnding::LF, &der).unwrap();
    std::fs::write(&path, text).unwrap();
    path
}

#[test]
fn generated_pair_round_trips_and_private_key_is_0600() {
    let dir = temp_dir("roundtrip");
    let key = generate().unwrap();
    let files = write_key_pair(&dir, "root", &key).unwrap();
    assert_eq!(files.private, dir.join("root.key"));
    assert_eq!(files.public, dir.join("root.pub"));
    let mode = std::fs::metadata(&files.private)
        .unwrap()
        .permissions()
        .mode();
    assert_eq!(mode & 0o777, 0o600);
    let loaded = load_signing_key(&files.private).unwrap();
    assert_eq!(loaded.to_bytes(), key.to_bytes());
    let public = load_verifying_key(&files.public).unwrap();
    assert_eq!(public, key.verifying_key());
    let sig = loaded.sign(b"janus");
    public.verify_strict(b"janus", &sig).unwrap();
    let text = std::fs::read_to_string(&files.private).unwrap();
    assert!(text.starts_with("-----BEGIN PRIVATE KEY-----\n"));
    let text = std::fs::read_to_string(&files.public).unwrap();
    assert!(text.starts_with("-----BEGIN PUBLIC KEY-----\n"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn two_generated_keys_differ() {
    assert_ne!(
        generate().unwrap().to_bytes(),
        generate().unwrap().to_bytes()
    );
}

#[test]
fn existing_files_are_not_overwritten() {
    let dir = temp_dir("exists");
    let first = generate().unwrap();
    write_key_pair(&dir, "k", &first).unwrap();
    let err = write_key_pair(&dir, "k", &generate().unwrap()).unwrap_err();
    assert!(matches!(err, KeyError::Exists { .. }), "{err}");
    assert_eq!(
        load_signing_key(&dir.join("k.key")).unwrap().to_bytes(),
        first.to_bytes()
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn swapped_files_are_named_in_the_error() {
    let dir = temp_dir("swapped");
    let files = write_key_pair(&dir, "k", &generate().unwrap()).unwrap();
    let err = load_signing_key(&files.public).unwrap_err();
    assert!(matches!(err, KeyError::PublicWherePrivateExpected { .. }));
    assert!(
        err.to_string().contains("where a private key is expected"),
        "{err}"
    );
    let err = load_verifying_key(&files.private).unwrap_err();
    assert!(matches!(err, KeyError::PrivateWherePublicExpected { .. }));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn non_pem_missing_and_malformed_files_are_refused() {
    let dir = temp_dir("garbage");
    let path = dir.join("junk.key");
    std::fs::write(&path, "not a key\n").unwrap();
    assert!(matches!(
        load_signing_key(&path).unwrap_err(),
        KeyError::NotPem { .. }
    ));
    assert!(matches!(
        load_signing_key(&dir.join("missing.key")).unwrap_err(),
        KeyError::Io { .. }
    ));
    let path = dir.join("short.key");
    let text = pem::encode_string(
        "PRIVATE KEY",
        LineEnding::LF,
        &[0x30, 0x03, 0x02, 0x01, 0x00],
    )
    .unwrap();
    std::fs::write(&path, text).unwrap();
    assert!(matches!(
        load_signing_key(&path).unwrap_err(),
        KeyError::Malformed { .. }
    ));
    let path = dir.join("cert.pem");
    let text = pem::encode_string("CERTIFICATE", LineEnding::LF, &[0x30, 0x00]).unwrap();
    std::fs::write(&path, text).unwrap();
    let err = load_verifying_key(&path).unwrap_err();
    assert!(matches!(err, KeyError::UnexpectedLabel { .. }), "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn keys_of_other_algorithms_are_refused_by_name() {
    let dir = temp_dir("wrongtype");
    let key = generate().unwrap();
    let der = key.to_pkcs8_der().unwrap();
    let ed448 = with_oid(&dir, "ed448.key", "PRIVATE KEY", der.as_bytes(), 0x71);
    let err = load_signing_key(&ed448).unwrap_err();
    assert!(matches!(err, KeyError::WrongKeyType { .. }), "{err}");
    assert!(err.to_string().contains("Ed448"), "{err}");
    let der = key.verifying_key().to_public_key_der().unwrap();
    let x25519 = with_oid(&dir, "x25519.pub", "PUBLIC KEY", der.as_bytes(), 0x6e);
    let err = load_verifying_key(&x25519).unwrap_err();
    assert!(err.to_string().contains("X25519"), "{err}");
    let rsa = dir.join("rsa.key");
    let text = pem::encode_string("RSA PRIVATE KEY", LineEnding::LF, &[0x30, 0x00]).unwrap();
    std::fs::write(&rsa, text).unwrap();
    let err = load_signing_key(&rsa).unwrap_err();
    assert!(
        err.to_string()
            .contains("not an Ed25519 key (algorithm RSA"),
        "{err}"
    );
    let enc = dir.join("enc.key");
    let text = pem::encode_string("ENCRYPTED PRIVATE KEY", LineEnding::LF, &[0x30, 0x00]).unwrap();
    std::fs::write(&enc, text).unwrap();
    assert!(matches!(
        load_signing_key(&enc).unwrap_err(),
        KeyError::Encrypted { .. }
    ));
    std::fs::remove_dir_all(&dir).unwrap();
}

/// OpenSSL reads the files we write and we read the public key it derives
/// (skipped when `openssl` is not installed).
#[test]
fn openssl_agrees_on_the_encoding() {
    let dir = temp_dir("openssl");
    let key = generate().unwrap();
    let files = write_key_pair(&dir, "k", &key).unwrap();
    let derived = dir.join("derived.pub");
    let out = std::process::Command::new("openssl")
        .args(["pkey", "-pubout", "-in"])
        .arg(&files.private)
        .arg("-out")
        .arg(&derived)
        .output();
    match out {
        Err(e) => eprintln!("skipped: cannot run openssl: {e}"),
        Ok(out) => {
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            assert_eq!(load_verifying_key(&derived).unwrap(), key.verifying_key());
            assert_eq!(
                std::fs::read_to_string(&derived).unwrap(),
                std::fs::read_to_string(&files.public).unwrap()
            );
            // And a key OpenSSL generates loads as is.
            let theirs = dir.join("openssl.key");
            let out = std::process::Command::new("openssl")
                .args(["genpkey", "-algorithm", "ed25519", "-out"])
                .arg(&theirs)
                .output()
                .unwrap();
            assert!(
                out.status.success(),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
            load_signing_key(&theirs).unwrap();
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}
