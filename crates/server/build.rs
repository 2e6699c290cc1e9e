//! Embeds every file under `web/` (the browser client) as `(path, bytes)` pairs.

use std::path::Path;

fn walk(dir: &Path, root: &Path, out: &mut Vec<String>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    let mut entries: Vec<_> = entries.flatten().map(|e| e.path()).collect();
    entries.sort();
    for path in entries {
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
        if name.starts_with('.') || name == "node_modules" || name == "tests" {
            continue;
        }
        if path.is_dir() {
            walk(&path, root, out);
        } else if let Ok(rel) = path.strip_prefix(root) {
            let rel = rel.to_string_lossy().replace('\\', "/");
            let abs = path.canonicalize().unwrap_or(path.clone());
            out.push(format!(
                "({rel:?}, include_bytes!({:?}).as_slice()),",
                abs.display().to_string()
            ));
        }
    }
}

fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("web");
    println!("cargo:rerun-if-changed={}", root.display());
    // `sqlx::migrate!` embeds migrations/ at compile time: a new migration must rebuild.
    println!("cargo:rerun-if-changed=migrations");
    let mut entries = Vec::new();
    walk(&root, &root, &mut entries);
    let code = format!(
        "/// The client's files: path below `web/` and contents.\npub static WEB_FILES: &[(&str, &[u8])] = &[\n{}\n];\n",
        entries.join("\n")
    );
    let out = std::path::PathBuf::from(std::env::var("OUT_DIR").unwrap()).join("web_files.rs");
    std::fs::write(out, code).unwrap();
}
