import FocusCLI

@main
enum Entrypoint {
    static func main() async {
        await FocusMain.mainThenExit()
    }
}
