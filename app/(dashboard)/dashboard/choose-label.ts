// One name for the one action of choosing a sheet, wherever it is offered or mentioned (a plain
// module: both the client form and the server-rendered notes read it).
export const CHOOSE = "Choose a sheet from Google Drive";
