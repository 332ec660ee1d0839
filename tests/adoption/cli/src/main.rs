//! The team's symgen command line: the toolkit with its protocol registered.

fn main() -> std::process::ExitCode {
    symgen::Cli::new()
        .with_name("cargo run -p chat-cli --")
        .protocol(chat_protocol::protocol())
        .run()
}
