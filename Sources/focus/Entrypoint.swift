import FocusCLI

#if canImport(Glibc)
import Glibc
#endif

@main
enum Entrypoint {
    static func main() async {
        exit(await FocusMain.main())
    }
}
