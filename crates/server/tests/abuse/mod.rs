//! Issue 31: no anonymous client can pin the CPU or the memory, and no answer lies. Each test
//! is one attack of the issue, with the limit that stops it (counts of work, never timings).

use super::*;

/// The proof that never ends: mate in 3 on a whole Standard board.
const ENDLESS_PROOF: &str = "[Board \"Standard - Two Timelines\"]\n";

const MATE_IN_ONE: &str = "[Board \"custom\"]\n[Size \"5x5\"]\n[4k/5/4K/5/R4:0:1:w]\n";

fn user_puzzles(list: &Value) -> usize {
    list["puzzles"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|p| p["made"] == true)
        .count()
}

fn server_with(cfg: Config) -> Server {
    let db = cfg.db.clone();
    let state = AppState::open(cfg).unwrap();
    Server {
        app: Api::new(router(state.clone())),
        state,
        db,
    }
}

mod proofs {
    use super::*;

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_proof_has_a_work_budget_and_a_spent_one_is_unknown() {
        let s = server();
        let r = tokio::time::timeout(
            Duration::from_secs(60),
            post(
                &s.app,
                "/api/user-puzzles",
                json!({ "import": ENDLESS_PROOF, "mate_in": 3 }),
            ),
        )
        .await
        .expect("the proof ended within a minute");
        assert_error(&r, StatusCode::BAD_REQUEST, "did not finish within its work budget");
        assert_eq!(r.1["code"], "proof_unfinished", "{}", r.1);
        assert!(r.1["error"].as_str().unwrap().contains("unknown"), "{}", r.1);
        let (_, list) = call(&s.app, "GET", "/api/puzzles", None).await;
        assert_eq!(user_puzzles(&list), 0);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn one_proof_at_a_time_per_client() {
        let s = server();
        let body = json!({ "import": ENDLESS_PROOF, "mate_in": 3 });
        let (a, b) = tokio::join!(
            post(&s.app, "/api/user-puzzles", body.clone()),
            post(&s.app, "/api/user-puzzles", body.clone())
        );
        let mut statuses = [a.0, b.0];
        statuses.sort();
        assert_eq!(
            statuses,
            [StatusCode::BAD_REQUEST, StatusCode::TOO_MANY_REQUESTS],
            "{} {}",
            a.1,
            b.1
        );
        let limited = if a.0 == StatusCode::TOO_MANY_REQUESTS { a.1 } else { b.1 };
        assert_eq!(limited["kind"], "limited", "{limited}");
        assert!(
            limited["error"].as_str().unwrap().contains("proofs-per-client"),
            "{limited}"
        );
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn puzzle_making_is_rate_limited() {
        let s = server_with(Config {
            rate_limit: Some(1),
            ..config(temp_db())
        });
        let mut statuses = Vec::new();
        for _ in 0..8 {
            let r = post(
                &s.app,
                "/api/user-puzzles",
                json!({ "import": MATE_IN_ONE, "mate_in": 1 }),
            )
            .await;
            statuses.push(r.0);
        }
        assert!(statuses.contains(&StatusCode::CREATED), "{statuses:?}");
        assert!(statuses.contains(&StatusCode::TOO_MANY_REQUESTS), "{statuses:?}");
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn a_timed_out_proof_stops_and_saves_nothing() {
        let mut cfg = Config {
            request_timeout: Duration::from_millis(500),
            ..config(temp_db())
        };
        cfg.limits.proof_budget = u64::MAX / 2;
        let s = server_with(cfg);
        let r = post(
            &s.app,
            "/api/user-puzzles",
            json!({ "import": ENDLESS_PROOF, "mate_in": 3 }),
        )
        .await;
        assert_eq!(r.0, StatusCode::REQUEST_TIMEOUT, "{}", r.1);
        // The proof notices the cancellation at its next list of actions.
        let mut running = s.state.proofs_running();
        for _ in 0..200 {
            if running == 0 {
                break;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
            running = s.state.proofs_running();
        }
        assert_eq!(running, 0, "the proof goes on after the 408");
        let (_, list) = call(&s.app, "GET", "/api/puzzles", None).await;
        assert_eq!(user_puzzles(&list), 0);
        // The client's quota is free again.
        let r = post(
            &s.app,
            "/api/user-puzzles",
            json!({ "import": MATE_IN_ONE, "mate_in": 1 }),
        )
        .await;
        assert_eq!(r.0, StatusCode::CREATED, "{}", r.1);
    }
}
