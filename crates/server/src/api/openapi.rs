//! The OpenAPI description of the HTTP API, served at `/api/openapi.json`.

use axum::response::IntoResponse;
use utoipa::OpenApi;

/// The API's OpenAPI document.
#[derive(OpenApi)]
#[openapi(
    info(
        title = "Tabula",
        description = "Play backgammon, Never-Finishing backgammon, Grasshopper and Grasshopper (Halma). WebSocket messages: docs/protocol.md."
    ),
    paths(
        super::health,
        super::ready,
        super::lobby,
        super::player_games,
        super::players::guest,
        super::players::register,
        super::players::login,
        super::players::logout,
        super::players::me,
        super::players::session,
        super::preferences::get,
        super::preferences::put,
        super::chat::read,
        super::chat::post,
        super::chat::settings,
        super::rematch::offer,
        super::rematch::decline,
        super::players::token,
        super::players::sessions,
        super::players::end_session,
        super::players::logout_all,
        super::players::player,
        super::games::create,
        super::games::join,
        super::games::get,
        super::games::act,
        super::games::roll,
        super::games::resign,
        super::games::abort,
        super::records::events,
        super::records::record,
        super::records::export,
        super::analysis::request,
        super::analysis::get,
        super::analysis::hint,
        super::study::evaluate,
        super::study::position,
        super::progress::progress,
        super::archive::archive,
        super::study_rollout::rollout,
        super::study_nf::evaluate,
        super::study_grasshopper::evaluate,
        super::trainer::trainer,
        super::trainer::answer,
        super::stats::stats,
    ),
    components(schemas(
        crate::error::ErrorBody,
        crate::games::GameOptions,
        crate::games::GameEnd,
        crate::games::FinishedGame,
        super::analysis::AnalysisView,
        super::analysis::HintView,
        super::study::EvaluateRequest,
        super::study::PositionRequest,
        super::progress::ProgressView,
        super::progress::AnalysedPoint,
        crate::store::ratings::RatingPoint,
        super::study::PositionView,
        super::study::IdsView,
        super::study::CandidateView,
        super::study_rollout::RolloutRequest,
        super::study_rollout::SumsJson,
        super::study::EvaluateView,
        super::study::ChancesView,
        super::trainer::TrainerView,
        super::study_nf::NfEvaluateRequest,
        super::study_nf::NfEvaluateView,
        super::study_grasshopper::GrasshopperRequest,
        super::study_grasshopper::GrasshopperView,
        super::study_grasshopper::ExactMove,
        super::trainer::ExerciseView,
        super::trainer::AnswerRequest,
        super::trainer::AnswerView,
        crate::store::trainer::Score,
        crate::store::analyses::JobRow,
        crate::clock::TimeControl,
        crate::clock::ClockView,
        super::games::LeanView
    ))
)]
pub struct ApiDoc;

/// `GET /api/openapi.json`.
pub async fn spec() -> impl IntoResponse {
    axum::Json(ApiDoc::openapi())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_document_describes_the_account_endpoints_and_errors() {
        let doc = serde_json::to_value(ApiDoc::openapi()).unwrap();
        for path in ["/api/sessions", "/api/sessions/{id}", "/api/logout-all"] {
            assert!(doc["paths"][path].is_object(), "{path}");
        }
        let login = doc["paths"]["/api/login"]["post"]["responses"].to_string();
        for text in ["429", "too_many_attempts", "503", "busy"] {
            assert!(login.contains(text), "{text}: {login}");
        }
        assert!(doc["components"]["schemas"]["SessionRow"].is_object());
    }

    #[test]
    fn the_document_describes_the_trainer_and_the_study_bounds_per_client() {
        let doc = serde_json::to_value(ApiDoc::openapi()).unwrap();
        assert!(doc["paths"]["/api/trainer"]["get"].is_object());
        let answer = doc["paths"]["/api/trainer/{id}/answer"]["post"]["responses"].to_string();
        for text in ["bad_choice", "not_due", "learned", "429", "503"] {
            assert!(answer.contains(text), "{text}: {answer}");
        }
        for path in ["/api/study/evaluate", "/api/study/rollout"] {
            let r = doc["paths"][path]["post"]["responses"].to_string();
            assert!(r.contains("429") && r.contains("too_many"), "{path}: {r}");
        }
        assert!(doc["components"]["schemas"]["AnswerView"].is_object());
    }

    #[test]
    fn the_document_describes_the_endings_and_the_halma_evacuation_option() {
        let doc = serde_json::to_value(ApiDoc::openapi()).unwrap();
        let schemas = &doc["components"]["schemas"];
        for field in ["winner", "points", "code", "sentence"] {
            assert!(
                schemas["GameEnd"]["properties"][field].is_object(),
                "GameEnd.{field}"
            );
        }
        let finished = schemas["FinishedGame"].to_string();
        for field in ["number", "score", "board", "GameEnd"] {
            assert!(finished.contains(field), "FinishedGame: {finished}");
        }
        assert!(
            schemas["GameOptions"].to_string().contains("evacuation"),
            "{}",
            schemas["GameOptions"]
        );
    }

    #[test]
    fn the_document_describes_the_idempotency_key_and_the_lean_reply() {
        let doc = serde_json::to_value(ApiDoc::openapi()).unwrap();
        let create = doc["paths"]["/api/games"]["post"].to_string();
        for text in ["Idempotency-Key", "header", "reply", "LeanView"] {
            assert!(create.contains(text), "{text}: {create}");
        }
        for path in [
            "/api/games/{id}/actions",
            "/api/games/{id}/roll",
            "/api/games/{id}/join",
        ] {
            let params = doc["paths"][path]["post"]["parameters"].to_string();
            assert!(params.contains("\"reply\""), "{path}: {params}");
        }
        let lean = doc["components"]["schemas"]["LeanView"].to_string();
        for field in ["version", "roller", "status", "legal", "invite_code"] {
            assert!(lean.contains(field), "LeanView.{field}: {lean}");
        }
    }
}
