// A Botzone Chinese-Standard-Mahjong bot for the tests (written for mahjong_core, MIT like the
// project): it discards the tile it has just drawn ("2 T" -> "PLAY T") and passes everything else.
// Reads simple interaction (the turn number n, then 2n-1 lines: request 1, response 1, ...,
// request n) and answers in JSON interaction's output form, {"response": "..."} on one line.
#include <iostream>
#include <sstream>
#include <string>

int main() {
    std::string line;
    if (!std::getline(std::cin, line)) return 1;
    int turns = std::stoi(line);
    std::string last;
    for (int i = 0; i < 2 * turns - 1; ++i) {
        if (!std::getline(std::cin, line)) return 1;
        if (i % 2 == 0) last = line;  // requests are the even lines
    }
    std::istringstream in(last);
    int kind = -1;
    std::string tile;
    in >> kind >> tile;
    std::string response = (kind == 2) ? "PLAY " + tile : "PASS";
    std::cout << "{\"response\": \"" << response << "\"}" << std::endl;
    return 0;
}
