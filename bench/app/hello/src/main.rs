fn main() {
    if let Err(err) = tauri::Builder::default().run(tauri::generate_context!()) {
        eprintln!("hello-tauri: {err}");
        std::process::exit(1);
    }
}
