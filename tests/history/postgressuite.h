#pragma once
// One private PostgreSQL server for a test suite (PostgresServer: initdb and postgres as an
// unprivileged user), each test a database of its own on it.

#include "tests/history/postgresserver.h"

#include <gtest/gtest.h>

#include <string>

namespace sv::test {

class PostgresSuite : public ::testing::Test {
  protected:
    static void SetUpTestSuite() { server = new PostgresServer; }
    static void TearDownTestSuite() {
        delete server;
        server = nullptr;
    }
    // A new database, prefix and a number, in db (call under ASSERT_NO_FATAL_FAILURE).
    void createDatabase(const std::string& prefix) {
        ASSERT_TRUE(server->ok()) << "the test PostgreSQL server did not start: "
                                  << server->error();
        db = prefix + std::to_string(++counter);
        const auto made = server->psql("CREATE DATABASE " + db);
        ASSERT_EQ(made.exitCode, 0) << made.err;
    }
    // What psql prints for sql in the test's database (row counts, straight from the server).
    std::string query(const std::string& sql) const {
        const auto r = server->psql(sql, db);
        EXPECT_EQ(r.exitCode, 0) << r.err;
        return r.out;
    }

    static inline PostgresServer* server = nullptr;
    static inline int counter = 0;
    std::string db;
};

} // namespace sv::test
