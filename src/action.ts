import "./cli-main.js"; console.log("action placeholder");
