fn main() {
    std::process::exit(agent_lsp::cli::main());
}
